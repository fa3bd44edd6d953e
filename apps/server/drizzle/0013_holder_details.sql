CREATE TABLE "holder_details" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"descriptor" text,
	"brand_name" text,
	"obol_id" text,
	"mid" text,
	"registration_number" text,
	"street" text,
	"city" text,
	"zip_code" text,
	"direct_merchant" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "holder_details" ADD CONSTRAINT "holder_details_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;