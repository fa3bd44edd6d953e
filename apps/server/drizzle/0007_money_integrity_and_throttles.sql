CREATE TABLE "login_throttle" (
	"email" text PRIMARY KEY NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "payouts_merchant_trx_idx";--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "template" text DEFAULT 'message' NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "duplicate_mtid" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- a merchant transaction id paid twice before this constraint existed: the later payouts are flagged, so the
-- unique index below holds for everything else
UPDATE "payouts" p SET "duplicate_mtid" = true
  WHERE EXISTS (SELECT 1 FROM "payouts" q WHERE q."merchant_id" = p."merchant_id"
    AND q."merchant_transaction_id" = p."merchant_transaction_id" AND q."id" < p."id");--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "amount_returned" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "batches" ADD COLUMN "fee_returned" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_merchant_mtid_key" ON "payouts" USING btree ("merchant_id","merchant_transaction_id") WHERE NOT "payouts"."duplicate_mtid";--> statement-breakpoint
CREATE INDEX "payouts_inflight_idx" ON "payouts" USING btree ("created_at","id") WHERE "payouts"."status" = 'Processing';--> statement-breakpoint
CREATE INDEX "staged_mtid_idx" ON "staged_transactions" USING btree ("merchant_transaction_id");--> statement-breakpoint
ALTER TABLE "mail_outbox" DROP COLUMN "text";;--> statement-breakpoint
-- Every journal entry sums to zero and has at least two postings, checked by the database at commit
-- (deferred), whatever code wrote it.
CREATE OR REPLACE FUNCTION journal_entry_balanced() RETURNS trigger AS $$
DECLARE
  entry bigint;
  total numeric;
  lines integer;
BEGIN
  IF TG_TABLE_NAME = 'postings' THEN
    entry := NEW.entry_id;
  ELSE
    entry := NEW.id;
  END IF;
  SELECT coalesce(sum(amount), 0), count(*) INTO total, lines FROM postings WHERE entry_id = entry;
  IF total <> 0 OR lines < 2 THEN
    RAISE EXCEPTION 'journal entry % does not balance: % postings summing to %', entry, lines, total
      USING ERRCODE = '23514', CONSTRAINT = 'journal_entry_balanced';
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_entry_balanced_postings AFTER INSERT ON postings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION journal_entry_balanced();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER journal_entry_balanced_entries AFTER INSERT ON journal_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION journal_entry_balanced();
