-- The batch check of 0023/0024 looked up the batch once per new row (an anti-join of the statement's rows against
-- batches): about a quarter of a staging COPY's time on PGlite. A statement's rows are nearly always one batch's (a
-- staging chunk, a review edit): then one look-up settles it, by the rows' one batch id and their lowest and highest
-- ids (an id's batch number, id / 100000000, rises with the id, so every id between two of one number has it too).
-- Any other statement (several batches, a row outside its range, no rows) is checked row by row as before.
CREATE OR REPLACE FUNCTION staged_transactions_batch_exists() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_missing text;
BEGIN
  PERFORM 1
  FROM (SELECT min(batch_id) AS lo, max(batch_id) AS hi, min(id) AS first_id, max(id) AS last_id FROM staged_rows) n
  JOIN batches b ON b.batch_id = n.lo
  WHERE n.lo = n.hi AND b.seq = n.first_id / 100000000 AND b.seq = n.last_id / 100000000;
  IF FOUND THEN
    RETURN NULL;
  END IF;
  SELECT n.batch_id INTO v_missing FROM staged_rows n
  WHERE NOT EXISTS (SELECT 1 FROM batches b WHERE b.batch_id = n.batch_id AND b.seq = n.id / 100000000) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'staged rows of batch % which does not exist, or outside its range of ids', v_missing
      USING ERRCODE = '23503', CONSTRAINT = 'staged_transactions_batch_exists';
  END IF;
  RETURN NULL;
END;
$$;
