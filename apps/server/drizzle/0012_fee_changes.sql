CREATE TABLE "fee_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"holder_id" integer NOT NULL,
	"old_bps" integer NOT NULL,
	"new_bps" integer NOT NULL,
	"reason" text NOT NULL,
	"changed_by" integer NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fee_changes" ADD CONSTRAINT "fee_changes_holder_id_users_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fee_changes" ADD CONSTRAINT "fee_changes_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fee_changes_holder_idx" ON "fee_changes" USING btree ("holder_id","changed_at" DESC NULLS LAST,"id" DESC NULLS LAST);