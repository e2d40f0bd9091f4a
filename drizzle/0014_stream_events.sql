CREATE TABLE "stream_events" (
	"position" bigint PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"payload" jsonb NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stream_head" (
	"id" smallint PRIMARY KEY NOT NULL,
	"position" bigint NOT NULL
);
