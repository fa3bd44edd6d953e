ALTER TABLE "payins" DROP CONSTRAINT "payins_link_status_known";--> statement-breakpoint
-- links whose pay-in was paid or declined before this change take no more payment: Used (record 038)
UPDATE "payins" SET "link_status" = 'Used' WHERE "status" IN ('Completed', 'Declined') AND "link_status" = 'Initiated';--> statement-breakpoint
ALTER TABLE "payins" ADD CONSTRAINT "payins_link_status_known" CHECK ("payins"."link_status" IN ('Initiated', 'Used', 'Expired'));
