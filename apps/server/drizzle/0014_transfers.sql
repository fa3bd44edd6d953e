CREATE TABLE "transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" integer,
	"holder_id" integer,
	"account_id" integer NOT NULL,
	"account_kind" text NOT NULL,
	"account_code" text NOT NULL,
	"holder_name" text NOT NULL,
	"created_by" integer NOT NULL,
	"created_by_name" text NOT NULL,
	"beneficiary_name" text NOT NULL,
	"iban" text NOT NULL,
	"bic" text NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"amount" bigint NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"detail" text,
	"idempotency_key" text NOT NULL,
	"provider_id" text,
	"submitted_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfers_amount_positive" CHECK ("transfers"."amount" > 0),
	CONSTRAINT "transfers_status_known" CHECK ("transfers"."status" IN ('Pending', 'Completed', 'Declined'))
);
--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_merchant_id_users_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_idempotency_key" ON "transfers" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "transfers_created_idx" ON "transfers" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transfers_merchant_created_idx" ON "transfers" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transfers_holder_created_idx" ON "transfers" USING btree ("holder_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transfers_status_created_idx" ON "transfers" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transfers_pending_idx" ON "transfers" USING btree ("created_at","id") WHERE "transfers"."status" = 'Pending';--> statement-breakpoint
INSERT INTO "accounts" ("kind", "account_id", "name", "account_reference", "allow_overdraft") VALUES ('transfer_clearing', 'CLR-TRANSFER', 'Transfers in flight', 'Platform', false) ON CONFLICT ("account_id") DO NOTHING;
