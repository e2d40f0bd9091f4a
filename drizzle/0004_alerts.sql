CREATE TABLE "alerts" (
	"signal_id" text PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"run_id" text NOT NULL,
	"alerted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "alerts_timeframe_alerted_idx" ON "alerts" USING btree ("timeframe","alerted_at");