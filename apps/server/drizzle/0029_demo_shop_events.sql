CREATE TABLE "demo_shop_events" (
	"inbox" text NOT NULL,
	"event_id" text NOT NULL,
	"event" text NOT NULL,
	"body" text NOT NULL,
	"signature" text NOT NULL,
	"times" integer DEFAULT 1 NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "demo_shop_events_inbox_event_id_pk" PRIMARY KEY("inbox","event_id")
);
--> statement-breakpoint
CREATE INDEX "demo_shop_events_received_idx" ON "demo_shop_events" USING btree ("received_at");