CREATE TABLE "ledger_chain_state" (
	"chain" text PRIMARY KEY NOT NULL,
	"trades_through" bigint NOT NULL,
	"trades_complete" boolean NOT NULL,
	"verified_seq" bigint DEFAULT 0 NOT NULL,
	"verified_hash" text,
	"verified_at" timestamp with time zone,
	"full_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ledger_trades" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"signal_id" text NOT NULL,
	"replay_id" text,
	"detected_at" timestamp with time zone,
	"pattern_type" text,
	"score_band" text,
	"hash" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"signal" text NOT NULL,
	"state" text NOT NULL,
	"state_seq" bigint NOT NULL,
	"outcome" text,
	"changed_seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "replay_ledger_trades" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"signal_id" text NOT NULL,
	"replay_id" text,
	"detected_at" timestamp with time zone,
	"pattern_type" text,
	"score_band" text,
	"hash" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"signal" text NOT NULL,
	"state" text NOT NULL,
	"state_seq" bigint NOT NULL,
	"outcome" text,
	"changed_seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_trades_signal_idx" ON "ledger_trades" USING btree ("signal_id");--> statement-breakpoint
CREATE INDEX "ledger_trades_changed_idx" ON "ledger_trades" USING btree ("changed_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "replay_ledger_trades_signal_idx" ON "replay_ledger_trades" USING btree ("replay_id","signal_id");--> statement-breakpoint
CREATE INDEX "replay_ledger_trades_changed_idx" ON "replay_ledger_trades" USING btree ("replay_id","changed_seq");--> statement-breakpoint
CREATE INDEX "replay_ledger_trades_replay_seq_idx" ON "replay_ledger_trades" USING btree ("replay_id","seq");--> statement-breakpoint
-- Each chain's state: a chain with records already (written before the trades existed) is filled in by the
-- server's backfill (ledger/trades-backfill); an empty one is complete from its first append on.
INSERT INTO "ledger_chain_state" ("chain", "trades_through", "trades_complete")
  SELECT 'live', 0, NOT EXISTS (SELECT 1 FROM "ledger_records");--> statement-breakpoint
INSERT INTO "ledger_chain_state" ("chain", "trades_through", "trades_complete")
  SELECT 'replay', 0, NOT EXISTS (SELECT 1 FROM "replay_ledger_records");
