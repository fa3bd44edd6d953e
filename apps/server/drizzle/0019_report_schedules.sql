CREATE TABLE "report_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"kind" text NOT NULL,
	"auth_id" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"format" text DEFAULT 'csv' NOT NULL,
	"last_period" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_schedules_kind_known" CHECK ("report_schedules"."kind" IN ('activity', 'batch_payouts', 'failed', 'fees')),
	CONSTRAINT "report_schedules_format_known" CHECK ("report_schedules"."format" IN ('csv', 'xlsx'))
);
--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_schedules_owner_report" ON "report_schedules" USING btree ("owner_id","kind","auth_id");