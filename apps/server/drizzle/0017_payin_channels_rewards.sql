CREATE TABLE "payin_rewards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payin_id" bigint NOT NULL,
	"merchant_id" integer NOT NULL,
	"holder_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"wallet_id" text NOT NULL,
	"brand" text NOT NULL,
	"beneficiary_name" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text DEFAULT 'NotRewarded' NOT NULL,
	"payout_status" text,
	"reason" text,
	"idempotency_key" text,
	"provider_id" text,
	"rewarded_by" integer,
	"rewarded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payin_rewards_amount_positive" CHECK ("payin_rewards"."amount" > 0),
	CONSTRAINT "payin_rewards_status_known" CHECK ("payin_rewards"."status" IN ('NotRewarded', 'Rewarded')),
	CONSTRAINT "payin_rewards_payout_status_known" CHECK ("payin_rewards"."payout_status" IS NULL OR "payin_rewards"."payout_status" IN ('Pending', 'Completed', 'Declined')),
	CONSTRAINT "payin_rewards_rewarded_has_payout" CHECK (("payin_rewards"."status" = 'Rewarded') = ("payin_rewards"."payout_status" IS NOT NULL AND "payin_rewards"."payout_status" <> 'Declined'))
);
--> statement-breakpoint
ALTER TABLE "payins" ADD COLUMN "channel" text DEFAULT 'Payin' NOT NULL;--> statement-breakpoint
ALTER TABLE "payins" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "payin_rewards" ADD CONSTRAINT "payin_rewards_payin_id_payins_id_fk" FOREIGN KEY ("payin_id") REFERENCES "public"."payins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payin_rewards" ADD CONSTRAINT "payin_rewards_merchant_id_users_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payin_rewards" ADD CONSTRAINT "payin_rewards_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payin_rewards" ADD CONSTRAINT "payin_rewards_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payin_rewards" ADD CONSTRAINT "payin_rewards_rewarded_by_users_id_fk" FOREIGN KEY ("rewarded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payin_rewards_payin" ON "payin_rewards" USING btree ("payin_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payin_rewards_idempotency_key" ON "payin_rewards" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "payin_rewards_merchant_created_idx" ON "payin_rewards" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payin_rewards_created_idx" ON "payin_rewards" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payin_rewards_pending_idx" ON "payin_rewards" USING btree ("rewarded_at","id") WHERE "payin_rewards"."payout_status" = 'Pending';--> statement-breakpoint
CREATE INDEX "payins_channel_merchant_created_idx" ON "payins" USING btree ("channel","merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "payins" ADD CONSTRAINT "payins_channel_known" CHECK ("payins"."channel" IN ('Payin', 'CardEye'));--> statement-breakpoint
INSERT INTO "accounts" ("kind", "account_id", "name", "account_reference", "allow_overdraft") VALUES ('reward_clearing', 'CLR-REWARD', 'Rewards in flight', 'Platform', false) ON CONFLICT ("account_id") DO NOTHING;