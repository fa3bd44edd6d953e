ALTER TABLE "transfers" DROP CONSTRAINT "transfers_status_known";--> statement-breakpoint
ALTER TABLE "payin_rewards" DROP CONSTRAINT "payin_rewards_payout_status_known";--> statement-breakpoint
ALTER TABLE "payin_rewards" DROP CONSTRAINT "payin_rewards_rewarded_has_payout";--> statement-breakpoint
ALTER TABLE "payins" DROP CONSTRAINT "payins_status_known";--> statement-breakpoint
ALTER TABLE "refunds" DROP CONSTRAINT "refunds_status_known";--> statement-breakpoint
ALTER TABLE "accounting_transactions" DROP CONSTRAINT "accounting_transactions_status_known";--> statement-breakpoint
DROP INDEX "payouts_inflight_idx";--> statement-breakpoint
DROP INDEX "transfers_pending_idx";--> statement-breakpoint
DROP INDEX "payin_rewards_pending_idx";--> statement-breakpoint
DROP INDEX "payins_pending_idx";--> statement-breakpoint
DROP INDEX "refunds_one_open_per_payin";--> statement-breakpoint
DROP INDEX "refunds_pending_idx";--> statement-breakpoint
DROP INDEX "accounting_transactions_pending_idx";--> statement-breakpoint
-- One status vocabulary (docs/decisions/043-one-status-vocabulary.md, engine/status.ts): each money table's
-- status column held its screen's words; it now holds the vocabulary, and the screens' words are made at the edge.
-- The outbox's triggers would write an event for every row converted here: they are off for these UPDATEs (same
-- transaction, so no other writer runs without them), and the events already written are converted alike.
--> statement-breakpoint
ALTER TABLE "payouts" DISABLE TRIGGER payouts_money_events_update;
--> statement-breakpoint
UPDATE "payouts" SET "status" = CASE "status" WHEN 'Pending approval' THEN 'held' WHEN 'Pending' THEN 'pending' WHEN 'Processing' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Failed' THEN 'failed' ELSE "status" END WHERE "status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "payouts" ENABLE TRIGGER payouts_money_events_update;
--> statement-breakpoint
UPDATE "money_events" SET "from_status" = CASE "from_status" WHEN 'Pending approval' THEN 'held' WHEN 'Pending' THEN 'pending' WHEN 'Processing' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Failed' THEN 'failed' ELSE "from_status" END WHERE "kind" = 'payout' AND "from_status" IS NOT NULL;
--> statement-breakpoint
UPDATE "money_events" SET "to_status" = CASE "to_status" WHEN 'Pending approval' THEN 'held' WHEN 'Pending' THEN 'pending' WHEN 'Processing' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Failed' THEN 'failed' ELSE "to_status" END WHERE "kind" = 'payout' AND "to_status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "transfers" DISABLE TRIGGER transfers_money_events_update;
--> statement-breakpoint
UPDATE "transfers" SET "status" = CASE "status" WHEN 'Pending approval' THEN 'held' WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' ELSE "status" END WHERE "status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "transfers" ENABLE TRIGGER transfers_money_events_update;
--> statement-breakpoint
UPDATE "money_events" SET "from_status" = CASE "from_status" WHEN 'Pending approval' THEN 'held' WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' ELSE "from_status" END WHERE "kind" = 'transfer' AND "from_status" IS NOT NULL;
--> statement-breakpoint
UPDATE "money_events" SET "to_status" = CASE "to_status" WHEN 'Pending approval' THEN 'held' WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' ELSE "to_status" END WHERE "kind" = 'transfer' AND "to_status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "accounting_transactions" DISABLE TRIGGER accounting_transactions_money_events_update;
--> statement-breakpoint
UPDATE "accounting_transactions" SET "status" = CASE "status" WHEN 'PENDING_APPROVAL' THEN 'held' WHEN 'PENDING' THEN 'in_flight' WHEN 'COMPLETED' THEN 'completed' WHEN 'FAILED' THEN 'failed' WHEN 'REJECTED' THEN 'rejected' WHEN 'REFUNDED' THEN 'refunded' ELSE "status" END WHERE "status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "accounting_transactions" ENABLE TRIGGER accounting_transactions_money_events_update;
--> statement-breakpoint
UPDATE "money_events" SET "from_status" = CASE "from_status" WHEN 'PENDING_APPROVAL' THEN 'held' WHEN 'PENDING' THEN 'in_flight' WHEN 'COMPLETED' THEN 'completed' WHEN 'FAILED' THEN 'failed' WHEN 'REJECTED' THEN 'rejected' WHEN 'REFUNDED' THEN 'refunded' ELSE "from_status" END WHERE "kind" = '2d' AND "from_status" IS NOT NULL;
--> statement-breakpoint
UPDATE "money_events" SET "to_status" = CASE "to_status" WHEN 'PENDING_APPROVAL' THEN 'held' WHEN 'PENDING' THEN 'in_flight' WHEN 'COMPLETED' THEN 'completed' WHEN 'FAILED' THEN 'failed' WHEN 'REJECTED' THEN 'rejected' WHEN 'REFUNDED' THEN 'refunded' ELSE "to_status" END WHERE "kind" = '2d' AND "to_status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "payins" DISABLE TRIGGER payins_money_events_update;
--> statement-breakpoint
UPDATE "payins" SET "status" = CASE "status" WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' WHEN 'Expired' THEN 'expired' ELSE "status" END WHERE "status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "payins" ENABLE TRIGGER payins_money_events_update;
--> statement-breakpoint
UPDATE "money_events" SET "from_status" = CASE "from_status" WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' WHEN 'Expired' THEN 'expired' ELSE "from_status" END WHERE "kind" = 'payin' AND "from_status" IS NOT NULL;
--> statement-breakpoint
UPDATE "money_events" SET "to_status" = CASE "to_status" WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' WHEN 'Expired' THEN 'expired' ELSE "to_status" END WHERE "kind" = 'payin' AND "to_status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "refunds" DISABLE TRIGGER refunds_money_events_update;
--> statement-breakpoint
UPDATE "refunds" SET "status" = CASE "status" WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' ELSE "status" END WHERE "status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "refunds" ENABLE TRIGGER refunds_money_events_update;
--> statement-breakpoint
UPDATE "money_events" SET "from_status" = CASE "from_status" WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' ELSE "from_status" END WHERE "kind" = 'refund' AND "from_status" IS NOT NULL;
--> statement-breakpoint
UPDATE "money_events" SET "to_status" = CASE "to_status" WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' ELSE "to_status" END WHERE "kind" = 'refund' AND "to_status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "payin_rewards" DISABLE TRIGGER payin_rewards_money_events_update;
--> statement-breakpoint
UPDATE "payin_rewards" SET "payout_status" = CASE "payout_status" WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' ELSE "payout_status" END WHERE "payout_status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "payin_rewards" ENABLE TRIGGER payin_rewards_money_events_update;
--> statement-breakpoint
UPDATE "money_events" SET "from_status" = CASE "from_status" WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' ELSE "from_status" END WHERE "kind" = 'reward' AND "from_status" IS NOT NULL;
--> statement-breakpoint
UPDATE "money_events" SET "to_status" = CASE "to_status" WHEN 'Pending' THEN 'in_flight' WHEN 'Completed' THEN 'completed' WHEN 'Declined' THEN 'failed' ELSE "to_status" END WHERE "kind" = 'reward' AND "to_status" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "payouts" ALTER COLUMN "status" SET DEFAULT 'in_flight';--> statement-breakpoint
ALTER TABLE "transfers" ALTER COLUMN "status" SET DEFAULT 'in_flight';--> statement-breakpoint
ALTER TABLE "payins" ALTER COLUMN "status" SET DEFAULT 'in_flight';--> statement-breakpoint
ALTER TABLE "refunds" ALTER COLUMN "status" SET DEFAULT 'in_flight';--> statement-breakpoint
CREATE INDEX "payouts_inflight_idx" ON "payouts" USING btree ("created_at","id") WHERE "payouts"."status" = 'in_flight';--> statement-breakpoint
CREATE INDEX "transfers_pending_idx" ON "transfers" USING btree ("created_at","id") WHERE "transfers"."status" = 'in_flight';--> statement-breakpoint
CREATE INDEX "payin_rewards_pending_idx" ON "payin_rewards" USING btree ("rewarded_at","id") WHERE "payin_rewards"."payout_status" = 'in_flight';--> statement-breakpoint
CREATE INDEX "payins_pending_idx" ON "payins" USING btree ("expires_at","id") WHERE "payins"."status" = 'in_flight';--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_open_per_payin" ON "refunds" USING btree ("payin_id") WHERE "refunds"."status" IN ('in_flight', 'completed');--> statement-breakpoint
CREATE INDEX "refunds_pending_idx" ON "refunds" USING btree ("created_at","id") WHERE "refunds"."status" = 'in_flight';--> statement-breakpoint
CREATE INDEX "accounting_transactions_pending_idx" ON "accounting_transactions" USING btree ("created_at","id") WHERE "accounting_transactions"."status" = 'in_flight';--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_status_known" CHECK ("payouts"."status" IN ('held', 'pending', 'in_flight', 'completed', 'failed'));--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_status_known" CHECK ("transfers"."status" IN ('held', 'in_flight', 'completed', 'failed'));--> statement-breakpoint
ALTER TABLE "payin_rewards" ADD CONSTRAINT "payin_rewards_payout_status_known" CHECK ("payin_rewards"."payout_status" IS NULL OR "payin_rewards"."payout_status" IN ('in_flight', 'completed', 'failed'));--> statement-breakpoint
ALTER TABLE "payin_rewards" ADD CONSTRAINT "payin_rewards_rewarded_has_payout" CHECK (("payin_rewards"."status" = 'Rewarded') = ("payin_rewards"."payout_status" IS NOT NULL AND "payin_rewards"."payout_status" <> 'failed'));--> statement-breakpoint
ALTER TABLE "payins" ADD CONSTRAINT "payins_status_known" CHECK ("payins"."status" IN ('in_flight', 'completed', 'failed', 'expired'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_status_known" CHECK ("refunds"."status" IN ('in_flight', 'completed', 'failed'));--> statement-breakpoint
ALTER TABLE "accounting_transactions" ADD CONSTRAINT "accounting_transactions_status_known" CHECK ("accounting_transactions"."status" IN ('held', 'in_flight', 'completed', 'failed', 'rejected', 'refunded'));