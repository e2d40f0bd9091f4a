CREATE TABLE "ledger_checkpoints" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"head_hash" text NOT NULL,
	"count" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_records" (
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
	"detected_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_records_hash_idx" ON "ledger_records" USING btree ("hash");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_records_signal_once_idx" ON "ledger_records" USING btree ("signal_id") WHERE kind = 'signal';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_records_outcome_once_idx" ON "ledger_records" USING btree ("signal_id") WHERE kind = 'outcome';--> statement-breakpoint
CREATE INDEX "ledger_records_signal_idx" ON "ledger_records" USING btree ("signal_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_records_detected_idx" ON "ledger_records" USING btree ("detected_at");