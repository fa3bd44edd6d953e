CREATE TABLE "accounting_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"rule_name" text NOT NULL,
	"reference" text NOT NULL,
	"account_id" integer NOT NULL,
	"transfer_type" text NOT NULL,
	"beneficiary_id" integer,
	"to_account_id" integer,
	"percentage" boolean NOT NULL,
	"amount" bigint NOT NULL,
	"interval" text NOT NULL,
	"interval_type" text NOT NULL,
	"interval_day" text,
	"status" integer DEFAULT 1 NOT NULL,
	"last_period" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounting_rules_amount_positive" CHECK ("accounting_rules"."amount" > 0),
	CONSTRAINT "accounting_rules_percentage_max" CHECK (NOT "accounting_rules"."percentage" OR "accounting_rules"."amount" <= 10000),
	CONSTRAINT "accounting_rules_status_known" CHECK ("accounting_rules"."status" IN (0, 1)),
	CONSTRAINT "accounting_rules_type_known" CHECK ("accounting_rules"."transfer_type" IN ('external_transfer', 'internal_transfer')),
	CONSTRAINT "accounting_rules_interval_known" CHECK ("accounting_rules"."interval_type" IN ('daily', 'weekly', 'monthly')),
	CONSTRAINT "accounting_rules_target" CHECK (("accounting_rules"."transfer_type" = 'external_transfer' AND "accounting_rules"."beneficiary_id" IS NOT NULL) OR ("accounting_rules"."transfer_type" = 'internal_transfer' AND "accounting_rules"."to_account_id" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "accounting_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"company_name" text NOT NULL,
	"rule_id" integer,
	"rule_name" text,
	"rule_type" text NOT NULL,
	"period" text,
	"source_account_id" integer NOT NULL,
	"account_code" text NOT NULL,
	"transfer_type" text NOT NULL,
	"beneficiary_name" text NOT NULL,
	"iban" text NOT NULL,
	"bic" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"transfer_by" text NOT NULL,
	"created_by" integer,
	"status" text NOT NULL,
	"reason" text,
	"description" text DEFAULT '' NOT NULL,
	"idempotency_key" text NOT NULL,
	"provider_id" text,
	"submitted_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounting_transactions_amount" CHECK ("accounting_transactions"."amount" >= 0),
	CONSTRAINT "accounting_transactions_status_known" CHECK ("accounting_transactions"."status" IN ('COMPLETED', 'REJECTED', 'FAILED', 'PENDING_APPROVAL', 'PENDING', 'REFUNDED'))
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"api_key_enc" text NOT NULL,
	"api_key_hash" text NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"consent" text DEFAULT 'Pending' NOT NULL,
	"consent_token_hash" text,
	"consent_expires_at" timestamp with time zone,
	"consented_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "companies_status_known" CHECK ("companies"."status" IN (0, 1)),
	CONSTRAINT "companies_consent_known" CHECK ("companies"."consent" IN ('Pending', 'Approved')),
	CONSTRAINT "companies_active_needs_consent" CHECK ("companies"."status" = 0 OR "companies"."consent" = 'Approved')
);
--> statement-breakpoint
CREATE TABLE "company_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"provider_account_id" text NOT NULL,
	"name" text NOT NULL,
	"iban" text NOT NULL,
	"bic" text NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"ledger_account_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_beneficiaries" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"provider_beneficiary_id" text NOT NULL,
	"name" text NOT NULL,
	"iban" text NOT NULL,
	"bic" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounting_rules" ADD CONSTRAINT "accounting_rules_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_rules" ADD CONSTRAINT "accounting_rules_account_id_company_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."company_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_rules" ADD CONSTRAINT "accounting_rules_beneficiary_id_company_beneficiaries_id_fk" FOREIGN KEY ("beneficiary_id") REFERENCES "public"."company_beneficiaries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_rules" ADD CONSTRAINT "accounting_rules_to_account_id_company_accounts_id_fk" FOREIGN KEY ("to_account_id") REFERENCES "public"."company_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_rules" ADD CONSTRAINT "accounting_rules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_transactions" ADD CONSTRAINT "accounting_transactions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_transactions" ADD CONSTRAINT "accounting_transactions_source_account_id_company_accounts_id_fk" FOREIGN KEY ("source_account_id") REFERENCES "public"."company_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounting_transactions" ADD CONSTRAINT "accounting_transactions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_accounts" ADD CONSTRAINT "company_accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_accounts" ADD CONSTRAINT "company_accounts_ledger_account_id_accounts_id_fk" FOREIGN KEY ("ledger_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_beneficiaries" ADD CONSTRAINT "company_beneficiaries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounting_rules_created_idx" ON "accounting_rules" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_transactions_idempotency_key" ON "accounting_transactions" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "accounting_transactions_rule_period_key" ON "accounting_transactions" USING btree ("rule_id","period");--> statement-breakpoint
CREATE INDEX "accounting_transactions_created_idx" ON "accounting_transactions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "accounting_transactions_pending_idx" ON "accounting_transactions" USING btree ("created_at","id") WHERE "accounting_transactions"."status" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "companies_api_key_hash_key" ON "companies" USING btree ("api_key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_consent_token_key" ON "companies" USING btree ("consent_token_hash");--> statement-breakpoint
CREATE INDEX "companies_created_idx" ON "companies" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "company_accounts_provider_key" ON "company_accounts" USING btree ("company_id","provider_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "company_accounts_ledger_key" ON "company_accounts" USING btree ("ledger_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "company_beneficiaries_provider_key" ON "company_beneficiaries" USING btree ("company_id","provider_beneficiary_id");--> statement-breakpoint
INSERT INTO "accounts" ("kind", "account_id", "name", "account_reference", "allow_overdraft") VALUES ('accounting_clearing', 'CLR-2D', '2D transfers in flight', 'Platform', false) ON CONFLICT ("account_id") DO NOTHING;
