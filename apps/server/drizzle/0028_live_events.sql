ALTER TABLE "money_events" DROP CONSTRAINT "money_events_kind_known";--> statement-breakpoint
ALTER TABLE "money_events" ADD CONSTRAINT "money_events_kind_known" CHECK ("money_events"."kind" IN ('payout', 'batch', 'transfer', 'refund', 'reward', '2d', 'payin', 'download'));--> statement-breakpoint
-- an export's file, when it is asked for and when it is ready or failed: its owner's open screens hear it
CREATE FUNCTION money_events_download_files() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'download', n.id::text, NULL, n.owner_id, NULL, n.status, 0 FROM new_rows n ORDER BY n.id;
  ELSE
    INSERT INTO money_events (kind, object_id, merchant_id, holder_id, from_status, to_status, amount)
    SELECT 'download', n.id::text, NULL, n.owner_id, o.status, n.status, 0
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE n.status IS DISTINCT FROM o.status ORDER BY n.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER download_files_money_events_insert AFTER INSERT ON download_files REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_download_files();
--> statement-breakpoint
CREATE TRIGGER download_files_money_events_update AFTER UPDATE ON download_files REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_download_files();
--> statement-breakpoint
-- readers in every process wake at the commit of new events (NOTIFY is delivered at commit, once per transaction)
CREATE FUNCTION money_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows) THEN
    PERFORM pg_notify('money_events', '');
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER money_events_notify AFTER INSERT ON money_events REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION money_events_notify();
