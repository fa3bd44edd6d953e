CREATE TABLE "activity_log_chain" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "activity_log_chain_one_row" CHECK ("activity_log_chain"."id" = 1)
);
--> statement-breakpoint
DROP INDEX "activity_log_created_idx";--> statement-breakpoint
-- the chain's columns start empty; the records written before this migration are chained below, then they are required
ALTER TABLE "activity_log" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "hash" text;--> statement-breakpoint
-- A record's hash: sha256 (hex) of the JSON array of its fields in a fixed order, the previous record's hash among
-- them. jsonb's text form is canonical (keys sorted, one spacing), and the time is written in UTC to the
-- microsecond, so the same record always gives the same text on PGlite and PostgreSQL, whatever the session's time zone.
CREATE FUNCTION activity_log_digest(r activity_log) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(jsonb_build_array(
    r.seq, r.prev_hash, r.user_id, r.user_name, r.user_email, r.action, r.target_type, r.target_id,
    r.before, r.after, r.outcome, r.status_code, r.detail, r.ip, r.request_id,
    to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
  )::text, 'UTF8')), 'hex')
$$;--> statement-breakpoint
-- Chains the records written so far, in id order.
ALTER TABLE "activity_log" DISABLE TRIGGER activity_log_no_update;--> statement-breakpoint
DO $$
DECLARE
  r activity_log;
  n bigint := 0;
  h text := repeat('0', 64);
BEGIN
  FOR r IN SELECT * FROM activity_log ORDER BY id LOOP
    n := n + 1;
    r.seq := n;
    r.prev_hash := h;
    h := activity_log_digest(r);
    UPDATE activity_log SET seq = n, prev_hash = r.prev_hash, hash = h WHERE id = r.id;
  END LOOP;
  INSERT INTO activity_log_chain (id, seq, hash) VALUES (1, n, h);
END $$;--> statement-breakpoint
ALTER TABLE "activity_log" ENABLE TRIGGER activity_log_no_update;--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "prev_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "hash" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "activity_log_created_idx" ON "activity_log" USING btree ("created_at" DESC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_seq_key" UNIQUE("seq");--> statement-breakpoint
-- Appending: the head's row lock, taken by the UPDATE, is held until the inserting transaction ends, so records join
-- the chain one after the other on any number of connections; a transaction that rolls back gives its seq back.
-- Whatever the insert sends for seq, prev_hash and hash is replaced.
CREATE FUNCTION activity_log_chain_append() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  head_seq bigint;
  head_hash text;
BEGIN
  UPDATE activity_log_chain SET seq = seq + 1 WHERE id = 1 RETURNING seq, hash INTO head_seq, head_hash;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'activity_log_chain has no head';
  END IF;
  NEW.seq := head_seq;
  NEW.prev_hash := head_hash;
  NEW.hash := activity_log_digest(NEW);
  UPDATE activity_log_chain SET hash = NEW.hash WHERE id = 1;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER activity_log_chain_append BEFORE INSERT ON activity_log
  FOR EACH ROW EXECUTE FUNCTION activity_log_chain_append();--> statement-breakpoint
-- The head moves only with an insert into the log (from inside its trigger), and is never deleted.
CREATE FUNCTION activity_log_chain_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'activity_log_chain moves only with an insert into activity_log';
END;
$$;--> statement-breakpoint
CREATE TRIGGER activity_log_chain_guard BEFORE UPDATE OR DELETE ON activity_log_chain
  FOR EACH ROW EXECUTE FUNCTION activity_log_chain_guard();--> statement-breakpoint
CREATE TRIGGER activity_log_chain_no_truncate BEFORE TRUNCATE ON activity_log_chain
  FOR EACH STATEMENT EXECUTE FUNCTION activity_log_chain_guard();--> statement-breakpoint
-- append-only covers TRUNCATE too
CREATE TRIGGER activity_log_no_truncate BEFORE TRUNCATE ON activity_log
  FOR EACH STATEMENT EXECUTE FUNCTION activity_log_append_only();
