CREATE TABLE "ledger_figures" (
	"chain" text NOT NULL,
	"book" text NOT NULL,
	"figure" text NOT NULL,
	"variant" text NOT NULL,
	"definitions" text NOT NULL,
	"head_seq" bigint NOT NULL,
	"head_hash" text NOT NULL,
	"body" "bytea" NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_figures_chain_book_figure_pk" PRIMARY KEY("chain","book","figure")
);
