CREATE TABLE "payins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"merchant_id" integer NOT NULL,
	"holder_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"account_code" text NOT NULL,
	"merchant_name" text NOT NULL,
	"brand_name" text,
	"reference" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"return_url" text DEFAULT '' NOT NULL,
	"idempotency_key" text NOT NULL,
	"provider_id" text NOT NULL,
	"url" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'Pending' NOT NULL,
	"link_status" text DEFAULT 'Initiated' NOT NULL,
	"reason" text,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payins_amount_positive" CHECK ("payins"."amount" > 0),
	CONSTRAINT "payins_status_known" CHECK ("payins"."status" IN ('Pending', 'Completed', 'Declined', 'Expired')),
	CONSTRAINT "payins_link_status_known" CHECK ("payins"."link_status" IN ('Initiated', 'Expired'))
);
--> statement-breakpoint
ALTER TABLE "payins" ADD CONSTRAINT "payins_merchant_id_users_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payins" ADD CONSTRAINT "payins_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payins" ADD CONSTRAINT "payins_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payins_merchant_reference" ON "payins" USING btree ("merchant_id","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "payins_holder_idempotency_key" ON "payins" USING btree ("holder_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payins_provider_id" ON "payins" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "payins_merchant_created_idx" ON "payins" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payins_holder_created_idx" ON "payins" USING btree ("holder_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payins_created_idx" ON "payins" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payins_pending_idx" ON "payins" USING btree ("expires_at","id") WHERE "payins"."status" = 'Pending';