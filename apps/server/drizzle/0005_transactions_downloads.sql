CREATE TABLE "download_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"merchant_id" integer,
	"brand_id" integer,
	"kind" text NOT NULL,
	"is_report" integer DEFAULT 0 NOT NULL,
	"accounting" integer DEFAULT 0 NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"storage_key" text NOT NULL,
	"start_date" date,
	"end_date" date,
	"params" jsonb NOT NULL,
	"status" text DEFAULT 'Initiated' NOT NULL,
	"rows" integer,
	"bytes" bigint,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "payouts_batch_idx";--> statement-breakpoint
ALTER TABLE "download_files" ADD CONSTRAINT "download_files_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_files" ADD CONSTRAINT "download_files_merchant_id_users_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_files" ADD CONSTRAINT "download_files_brand_id_users_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_files_tenant_idx" ON "download_files" USING btree ("merchant_id","brand_id","is_report","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "download_files_owner_idx" ON "download_files" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "payouts_status_updated_idx" ON "payouts" USING btree ("status","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payouts_merchant_status_updated_idx" ON "payouts" USING btree ("merchant_id","status","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payouts_behalf_updated_idx" ON "payouts" USING btree ("behalf_of_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payouts_mtid_idx" ON "payouts" USING btree ("merchant_transaction_id");--> statement-breakpoint
CREATE INDEX "payouts_obol_idx" ON "payouts" USING btree ("obol_id");--> statement-breakpoint
CREATE INDEX "payouts_reference_idx" ON "payouts" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "payouts_brand_updated_idx" ON "payouts" USING btree ("brand","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payouts_batch_idx" ON "payouts" USING btree ("batch_id","id");