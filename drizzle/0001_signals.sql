CREATE TABLE "scan_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"timeframe" text NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"symbols_scanned" integer NOT NULL,
	"signals_found" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"error" text,
	"source" text NOT NULL,
	"regime" jsonb,
	"findings" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signal_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"signal_id" text NOT NULL,
	"run_id" text NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"price" double precision NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signals" (
	"id" text PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"pattern_type" text NOT NULL,
	"pattern_family" text NOT NULL,
	"direction" text NOT NULL,
	"detected_at" timestamp with time zone NOT NULL,
	"trigger_price" double precision NOT NULL,
	"target1" double precision NOT NULL,
	"stop_loss" double precision NOT NULL,
	"final_score" real NOT NULL,
	"confidence" real NOT NULL,
	"score_band" text NOT NULL,
	"trend_regime" text NOT NULL,
	"reasons" jsonb NOT NULL,
	"geometry" jsonb NOT NULL,
	"source" text NOT NULL,
	"first_run_id" text NOT NULL,
	"state" text NOT NULL,
	"last_seen_run_id" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signal_events" ADD CONSTRAINT "signal_events_signal_id_signals_id_fk" FOREIGN KEY ("signal_id") REFERENCES "public"."signals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scan_runs_timeframe_finished_idx" ON "scan_runs" USING btree ("timeframe","finished_at");--> statement-breakpoint
CREATE INDEX "signal_events_signal_idx" ON "signal_events" USING btree ("signal_id","id");--> statement-breakpoint
CREATE INDEX "signals_symbol_idx" ON "signals" USING btree ("symbol","detected_at");--> statement-breakpoint
CREATE INDEX "signals_detected_idx" ON "signals" USING btree ("detected_at","id");