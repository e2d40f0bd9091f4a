CREATE TABLE "replay_ledger_checkpoints" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"head_hash" text NOT NULL,
	"count" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "replay_ledger_records" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"signal_id" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"body" text NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"pattern_type" text,
	"score_band" text,
	"final_score" real,
	"detected_at" timestamp with time zone,
	"replay_id" text
);
--> statement-breakpoint
CREATE TABLE "replay_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"timeframe" text NOT NULL,
	"from_date" text NOT NULL,
	"to_date" text NOT NULL,
	"source" text NOT NULL,
	"origin" text NOT NULL,
	"params" jsonb NOT NULL,
	"universe" jsonb NOT NULL,
	"status" text NOT NULL,
	"sessions_total" integer NOT NULL,
	"sessions_done" integer NOT NULL,
	"signals" integer NOT NULL,
	"records" integer NOT NULL,
	"books" jsonb,
	"error" text,
	"started_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ledger_records" ADD COLUMN "replay_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "replay_ledger_records_hash_idx" ON "replay_ledger_records" USING btree ("hash");--> statement-breakpoint
CREATE UNIQUE INDEX "replay_ledger_records_signal_once_idx" ON "replay_ledger_records" USING btree ("replay_id","signal_id") WHERE kind = 'signal';--> statement-breakpoint
CREATE UNIQUE INDEX "replay_ledger_records_outcome_once_idx" ON "replay_ledger_records" USING btree ("replay_id","signal_id") WHERE kind = 'outcome';--> statement-breakpoint
CREATE INDEX "replay_ledger_records_signal_idx" ON "replay_ledger_records" USING btree ("signal_id","seq");--> statement-breakpoint
CREATE INDEX "replay_ledger_records_detected_idx" ON "replay_ledger_records" USING btree ("detected_at");--> statement-breakpoint
CREATE INDEX "replay_ledger_records_replay_idx" ON "replay_ledger_records" USING btree ("replay_id","seq");--> statement-breakpoint
CREATE INDEX "replay_runs_key_idx" ON "replay_runs" USING btree ("key");--> statement-breakpoint
CREATE INDEX "replay_runs_updated_idx" ON "replay_runs" USING btree ("updated_at");