-- A staged row's id is its batch's number times 100,000,000 plus its place in the file (its row number), given as
-- it is staged: a batch's rows are one range of the primary key, in the file's order. The index on (batch_id,
-- row_number) and the id sequence go: one index fewer for each of up to 100,000 rows a file (stage.ts).
ALTER TABLE "batches" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "batches_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_seq_unique" UNIQUE("seq");--> statement-breakpoint
-- rows staged before: numbered in their batch's range in their order (row number, then id), through negative ids
-- so that no new id meets an old one on the way
UPDATE "staged_transactions" SET "id" = -"id";--> statement-breakpoint
UPDATE "staged_transactions" s SET "id" = n.id
FROM (
  SELECT t.id AS old, b.seq * 100000000 + row_number() OVER (PARTITION BY t.batch_id ORDER BY t.row_number, -t.id) AS id
  FROM "staged_transactions" t JOIN "batches" b ON b.batch_id = t.batch_id
) n
WHERE s.id = n.old;--> statement-breakpoint
-- the database holds every row to its batch's range (the statement check of 0023, which also finds the batch): so
-- the range alone selects a batch's rows, and a query by it can only be read through the primary key
CREATE OR REPLACE FUNCTION staged_transactions_batch_exists() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_missing text;
BEGIN
  SELECT n.batch_id INTO v_missing FROM staged_rows n
  WHERE NOT EXISTS (SELECT 1 FROM batches b WHERE b.batch_id = n.batch_id AND b.seq = n.id / 100000000) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'staged rows of batch % which does not exist, or outside its range of ids', v_missing
      USING ERRCODE = '23503', CONSTRAINT = 'staged_transactions_batch_exists';
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
ALTER TABLE "staged_transactions" ALTER COLUMN "id" DROP DEFAULT;--> statement-breakpoint
DROP SEQUENCE IF EXISTS "staged_transactions_id_seq";--> statement-breakpoint
DROP INDEX "staged_batch_row_idx";
