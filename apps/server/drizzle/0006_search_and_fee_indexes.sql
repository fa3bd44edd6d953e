CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "payouts_beneficiary_trgm_idx" ON "payouts" USING gin ("beneficiary_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payouts_own_fee_idx" ON "payouts" USING btree ("merchant_id","status","updated_at") WHERE "payouts"."fee" > 0;