CREATE TABLE "ledger_signals" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"replay_id" text,
	"detected_at" timestamp with time zone,
	"pattern_type" text,
	"score_band" text,
	"n" bigint NOT NULL,
	"n_pattern" bigint NOT NULL,
	"n_band" bigint NOT NULL,
	"n_pattern_band" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "replay_ledger_signals" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"replay_id" text,
	"detected_at" timestamp with time zone,
	"pattern_type" text,
	"score_band" text,
	"n" bigint NOT NULL,
	"n_pattern" bigint NOT NULL,
	"n_band" bigint NOT NULL,
	"n_pattern_band" bigint NOT NULL
);
--> statement-breakpoint
-- Fills in the signals written before the index was kept (the appender keeps it from now on, in the transaction of each append).
INSERT INTO "ledger_signals" ("seq", "replay_id", "detected_at", "pattern_type", "score_band", "n", "n_pattern", "n_band", "n_pattern_band")
SELECT "seq", "replay_id", "detected_at", "pattern_type", "score_band",
	row_number() OVER (PARTITION BY "replay_id" ORDER BY "seq"),
	row_number() OVER (PARTITION BY "replay_id", "pattern_type" ORDER BY "seq"),
	row_number() OVER (PARTITION BY "replay_id", "score_band" ORDER BY "seq"),
	row_number() OVER (PARTITION BY "replay_id", "pattern_type", "score_band" ORDER BY "seq")
FROM "ledger_records" WHERE "kind" = 'signal';--> statement-breakpoint
-- Fills in the signals written before the index was kept (the appender keeps it from now on, in the transaction of each append).
INSERT INTO "replay_ledger_signals" ("seq", "replay_id", "detected_at", "pattern_type", "score_band", "n", "n_pattern", "n_band", "n_pattern_band")
SELECT "seq", "replay_id", "detected_at", "pattern_type", "score_band",
	row_number() OVER (PARTITION BY "replay_id" ORDER BY "seq"),
	row_number() OVER (PARTITION BY "replay_id", "pattern_type" ORDER BY "seq"),
	row_number() OVER (PARTITION BY "replay_id", "score_band" ORDER BY "seq"),
	row_number() OVER (PARTITION BY "replay_id", "pattern_type", "score_band" ORDER BY "seq")
FROM "replay_ledger_records" WHERE "kind" = 'signal';--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_signals_n_idx" ON "ledger_signals" USING btree ("n");--> statement-breakpoint
CREATE INDEX "ledger_signals_pattern_idx" ON "ledger_signals" USING btree ("pattern_type","n_pattern");--> statement-breakpoint
CREATE INDEX "ledger_signals_band_idx" ON "ledger_signals" USING btree ("score_band","n_band");--> statement-breakpoint
CREATE INDEX "ledger_signals_pattern_band_idx" ON "ledger_signals" USING btree ("pattern_type","score_band","n_pattern_band");--> statement-breakpoint
CREATE INDEX "ledger_signals_detected_idx" ON "ledger_signals" USING btree ("detected_at");--> statement-breakpoint
CREATE UNIQUE INDEX "replay_ledger_signals_n_idx" ON "replay_ledger_signals" USING btree ("replay_id","n");--> statement-breakpoint
CREATE INDEX "replay_ledger_signals_pattern_idx" ON "replay_ledger_signals" USING btree ("replay_id","pattern_type","n_pattern");--> statement-breakpoint
CREATE INDEX "replay_ledger_signals_band_idx" ON "replay_ledger_signals" USING btree ("replay_id","score_band","n_band");--> statement-breakpoint
CREATE INDEX "replay_ledger_signals_pattern_band_idx" ON "replay_ledger_signals" USING btree ("replay_id","pattern_type","score_band","n_pattern_band");--> statement-breakpoint
CREATE INDEX "replay_ledger_signals_detected_idx" ON "replay_ledger_signals" USING btree ("replay_id","detected_at");