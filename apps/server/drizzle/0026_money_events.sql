CREATE TABLE "money_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"object_id" text NOT NULL,
	"merchant_id" integer,
	"holder_id" integer,
	"from_status" text,
	"to_status" text NOT NULL,
	"amount" bigint NOT NULL,
	"tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "money_events_kind_known" CHECK ("money_events"."kind" IN ('payout', 'batch', 'transfer', 'refund', 'reward', '2d', 'payin'))
);
--> statement-breakpoint
CREATE INDEX "money_events_tx_idx" ON "money_events" USING btree ("tx","id");--> statement-breakpoint
CREATE INDEX "money_events_merchant_tx_idx" ON "money_events" USING btree ("merchant_id","tx","id");--> statement-breakpoint
CREATE INDEX "money_events_holder_tx_idx" ON "money_events" USING btree ("holder_id","tx","id");--> statement-breakpoint
CREATE INDEX "money_events_object_idx" ON "money_events" USING btree ("kind","object_id","id");--> statement-breakpoint
-- The outbox (engine/tables.ts): every status change of a movement of money writes one money_events row in its own
-- transaction, by these statement triggers, so no code path can change a status without its event, and a bulk
-- UPDATE of 1,000 payouts writes its 1,000 events in one INSERT ... SELECT (transition tables, not row triggers).
-- A reward's movement is its payment (payout_status): null -> Pending is the reward being paid.
--> statement-breakpoint
CREATE FUNCTION money_events_payouts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'payout', n.id::text, n.merchant_id, n.behalf_of_id, NULL, n.status, n.amount
    FROM new_rows n WHERE n.status IS NOT NULL ORDER BY n.id;
  ELSE
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'payout', n.id::text, n.merchant_id, n.behalf_of_id, o.status, n.status, n.amount
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status IS DISTINCT FROM o.status AND n.status IS NOT NULL ORDER BY n.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER payouts_money_events_insert AFTER INSERT ON payouts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_payouts();
--> statement-breakpoint
CREATE TRIGGER payouts_money_events_update AFTER UPDATE ON payouts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_payouts();
--> statement-breakpoint
CREATE FUNCTION money_events_batches() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'batch', n.batch_id, n.merchant_id, n.behalf_of_id, NULL, n.status, n.amount
    FROM new_rows n WHERE n.status IS NOT NULL ORDER BY n.batch_id;
  ELSE
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'batch', n.batch_id, n.merchant_id, n.behalf_of_id, o.status, n.status, n.amount
    FROM new_rows n JOIN old_rows o ON o.batch_id = n.batch_id
    WHERE n.status IS DISTINCT FROM o.status AND n.status IS NOT NULL ORDER BY n.batch_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER batches_money_events_insert AFTER INSERT ON batches REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_batches();
--> statement-breakpoint
CREATE TRIGGER batches_money_events_update AFTER UPDATE ON batches REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_batches();
--> statement-breakpoint
CREATE FUNCTION money_events_transfers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'transfer', n.id::text, n.merchant_id, n.holder_id, NULL, n.status, n.amount
    FROM new_rows n WHERE n.status IS NOT NULL ORDER BY n.id;
  ELSE
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'transfer', n.id::text, n.merchant_id, n.holder_id, o.status, n.status, n.amount
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status IS DISTINCT FROM o.status AND n.status IS NOT NULL ORDER BY n.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER transfers_money_events_insert AFTER INSERT ON transfers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_transfers();
--> statement-breakpoint
CREATE TRIGGER transfers_money_events_update AFTER UPDATE ON transfers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_transfers();
--> statement-breakpoint
CREATE FUNCTION money_events_refunds() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'refund', n.id::text, n.merchant_id, n.holder_id, NULL, n.status, n.amount
    FROM new_rows n WHERE n.status IS NOT NULL ORDER BY n.id;
  ELSE
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'refund', n.id::text, n.merchant_id, n.holder_id, o.status, n.status, n.amount
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status IS DISTINCT FROM o.status AND n.status IS NOT NULL ORDER BY n.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER refunds_money_events_insert AFTER INSERT ON refunds REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_refunds();
--> statement-breakpoint
CREATE TRIGGER refunds_money_events_update AFTER UPDATE ON refunds REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_refunds();
--> statement-breakpoint
CREATE FUNCTION money_events_payin_rewards() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'reward', n.id::text, n.merchant_id, n.holder_id, NULL, n.payout_status, n.amount
    FROM new_rows n WHERE n.payout_status IS NOT NULL ORDER BY n.id;
  ELSE
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'reward', n.id::text, n.merchant_id, n.holder_id, o.payout_status, n.payout_status, n.amount
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.payout_status IS DISTINCT FROM o.payout_status AND n.payout_status IS NOT NULL ORDER BY n.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER payin_rewards_money_events_insert AFTER INSERT ON payin_rewards REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_payin_rewards();
--> statement-breakpoint
CREATE TRIGGER payin_rewards_money_events_update AFTER UPDATE ON payin_rewards REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_payin_rewards();
--> statement-breakpoint
CREATE FUNCTION money_events_accounting_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT '2d', n.id::text, NULL::integer, NULL::integer, NULL, n.status, n.amount
    FROM new_rows n WHERE n.status IS NOT NULL ORDER BY n.id;
  ELSE
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT '2d', n.id::text, NULL::integer, NULL::integer, o.status, n.status, n.amount
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status IS DISTINCT FROM o.status AND n.status IS NOT NULL ORDER BY n.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER accounting_transactions_money_events_insert AFTER INSERT ON accounting_transactions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_accounting_transactions();
--> statement-breakpoint
CREATE TRIGGER accounting_transactions_money_events_update AFTER UPDATE ON accounting_transactions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_accounting_transactions();
--> statement-breakpoint
CREATE FUNCTION money_events_payins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'payin', n.id::text, n.merchant_id, n.holder_id, NULL, n.status, n.amount
    FROM new_rows n WHERE n.status IS NOT NULL ORDER BY n.id;
  ELSE
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'payin', n.id::text, n.merchant_id, n.holder_id, o.status, n.status, n.amount
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status IS DISTINCT FROM o.status AND n.status IS NOT NULL ORDER BY n.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER payins_money_events_insert AFTER INSERT ON payins REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_payins();
--> statement-breakpoint
CREATE TRIGGER payins_money_events_update AFTER UPDATE ON payins REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_payins();
