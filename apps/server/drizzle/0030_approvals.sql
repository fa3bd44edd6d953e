CREATE TABLE "approval_policies" (
	"holder_type" text NOT NULL,
	"holder_id" integer NOT NULL,
	"threshold" bigint NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_policies_holder_type_holder_id_pk" PRIMARY KEY("holder_type","holder_id"),
	CONSTRAINT "approval_policies_holder_type_known" CHECK ("approval_policies"."holder_type" IN ('merchant', 'company')),
	CONSTRAINT "approval_policies_threshold_positive" CHECK ("approval_policies"."threshold" >= 0)
);
--> statement-breakpoint
CREATE TABLE "approvals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"object_id" text NOT NULL,
	"merchant_id" integer,
	"holder_id" integer,
	"holder_name" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"description" text NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"maker_id" integer NOT NULL,
	"maker_name" text NOT NULL,
	"decided_by" integer,
	"decided_by_name" text,
	"decided_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approvals_kind_known" CHECK ("approvals"."kind" IN ('payout', 'batch', 'transfer', '2d')),
	CONSTRAINT "approvals_status_known" CHECK ("approvals"."status" IN ('Pending', 'Approved', 'Rejected')),
	CONSTRAINT "approvals_maker_not_decider" CHECK ("approvals"."decided_by" IS NULL OR "approvals"."decided_by" <> "approvals"."maker_id")
);
--> statement-breakpoint
ALTER TABLE "transfers" DROP CONSTRAINT "transfers_status_known";--> statement-breakpoint
CREATE UNIQUE INDEX "approvals_kind_object_key" ON "approvals" USING btree ("kind","object_id");--> statement-breakpoint
CREATE INDEX "approvals_status_idx" ON "approvals" USING btree ("status","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "approvals_merchant_idx" ON "approvals" USING btree ("merchant_id","status","id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_status_known" CHECK ("transfers"."status" IN ('Pending', 'Completed', 'Declined', 'Pending approval'));