CREATE TABLE "batches" (
	"batch_id" text PRIMARY KEY NOT NULL,
	"merchant_id" integer NOT NULL,
	"behalf_of_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"uploaded_by" integer NOT NULL,
	"payout_type" text NOT NULL,
	"file_name" text NOT NULL,
	"file_format" text,
	"status" text NOT NULL,
	"total_rows" integer DEFAULT 0 NOT NULL,
	"processed_rows" integer DEFAULT 0 NOT NULL,
	"error" text,
	"amount" bigint DEFAULT 0 NOT NULL,
	"fee" bigint DEFAULT 0 NOT NULL,
	"fee_bps" integer DEFAULT 0 NOT NULL,
	"saved_at" timestamp with time zone,
	"executed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staged_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"batch_id" text NOT NULL,
	"row_number" integer NOT NULL,
	"beneficiary_name" text DEFAULT '' NOT NULL,
	"obol_id" text DEFAULT '' NOT NULL,
	"merchant_transaction_id" text DEFAULT '' NOT NULL,
	"brand" text DEFAULT '' NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"amount_text" text DEFAULT '' NOT NULL,
	"amount" bigint,
	"errors" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text NOT NULL,
	"missing" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_merchant_id_users_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_behalf_of_id_users_id_fk" FOREIGN KEY ("behalf_of_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staged_transactions" ADD CONSTRAINT "staged_transactions_batch_id_batches_batch_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("batch_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batches_merchant_updated_idx" ON "batches" USING btree ("merchant_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "batches_updated_idx" ON "batches" USING btree ("updated_at" DESC NULLS LAST,"batch_id");--> statement-breakpoint
CREATE INDEX "batches_status_idx" ON "batches" USING btree ("status","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "staged_batch_row_idx" ON "staged_transactions" USING btree ("batch_id","row_number");--> statement-breakpoint
CREATE INDEX "staged_batch_status_idx" ON "staged_transactions" USING btree ("batch_id","status");--> statement-breakpoint
CREATE INDEX "staged_batch_mtid_idx" ON "staged_transactions" USING btree ("batch_id","merchant_transaction_id");