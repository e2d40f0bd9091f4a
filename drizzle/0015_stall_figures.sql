CREATE TABLE "replay_books" (
	"replay_id" text NOT NULL,
	"through" integer NOT NULL,
	"symbol" text NOT NULL,
	"book" text NOT NULL,
	CONSTRAINT "replay_books_replay_id_through_symbol_pk" PRIMARY KEY("replay_id","through","symbol")
);
--> statement-breakpoint
CREATE TABLE "ledger_chain_state" (
	"chain" text PRIMARY KEY NOT NULL,
	"facts_through" bigint NOT NULL,
	"facts_complete" boolean NOT NULL,
	"verified_seq" bigint DEFAULT 0 NOT NULL,
	"verified_hash" text,
	"verified_at" timestamp with time zone,
	"full_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ledger_facts" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"signal_id" text NOT NULL,
	"replay_id" text,
	"detected_at" timestamp with time zone,
	"pattern_type" text,
	"score_band" text,
	"hash" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"facts" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "replay_ledger_facts" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"signal_id" text NOT NULL,
	"replay_id" text,
	"detected_at" timestamp with time zone,
	"pattern_type" text,
	"score_band" text,
	"hash" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"facts" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "replay_runs" ADD COLUMN "books_through" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "replay_runs" ADD COLUMN "entries_since_books" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "replay_ledger_facts_replay_seq_idx" ON "replay_ledger_facts" USING btree ("replay_id","seq");--> statement-breakpoint
-- Each chain's state: a chain with records already (written before the facts were kept) is filled in by the
-- server's backfill (ledger/book); an empty one is complete from its first append on.
INSERT INTO "ledger_chain_state" ("chain", "facts_through", "facts_complete")
  SELECT 'live', 0, NOT EXISTS (SELECT 1 FROM "ledger_records");--> statement-breakpoint
INSERT INTO "ledger_chain_state" ("chain", "facts_through", "facts_complete")
  SELECT 'replay', 0, NOT EXISTS (SELECT 1 FROM "replay_ledger_records");--> statement-breakpoint
-- A run written before kept its books (replay_runs.books) as of its last chunk, with nothing written since.
UPDATE "replay_runs" SET "books_through" = "sessions_done" WHERE "books" IS NOT NULL;
