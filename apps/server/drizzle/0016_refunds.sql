CREATE TABLE "refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payin_id" bigint NOT NULL,
	"merchant_id" integer NOT NULL,
	"holder_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"reason" text,
	"idempotency_key" text NOT NULL,
	"provider_id" text,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount" > 0),
	CONSTRAINT "refunds_status_known" CHECK ("refunds"."status" IN ('Pending', 'Completed', 'Declined'))
);
--> statement-breakpoint
ALTER TABLE "payins" ADD COLUMN "refund_status" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payin_id_payins_id_fk" FOREIGN KEY ("payin_id") REFERENCES "public"."payins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_users_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_idempotency_key" ON "refunds" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_open_per_payin" ON "refunds" USING btree ("payin_id") WHERE "refunds"."status" IN ('Pending', 'Completed');--> statement-breakpoint
CREATE INDEX "refunds_merchant_created_idx" ON "refunds" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "refunds_pending_idx" ON "refunds" USING btree ("created_at","id") WHERE "refunds"."status" = 'Pending';--> statement-breakpoint
ALTER TABLE "payins" ADD CONSTRAINT "payins_refund_status_known" CHECK ("payins"."refund_status" IS NULL OR "payins"."refund_status" BETWEEN 0 AND 3);--> statement-breakpoint
UPDATE "payins" SET "refund_status" = 3 WHERE "status" = 'Completed';
