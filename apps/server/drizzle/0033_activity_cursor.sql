CREATE TABLE "activity_cursor" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_event_id" bigint NOT NULL
);
--> statement-breakpoint
-- the activity log records the movements from now on: what came before was recorded by the commands that made it
INSERT INTO "activity_cursor" ("id", "last_event_id") SELECT 1, coalesce(max("id"), 0) FROM "money_events";
