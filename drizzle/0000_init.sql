CREATE TABLE "bars" (
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"ts" bigint NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	"volume" double precision NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "bars_source_symbol_timeframe_ts_pk" PRIMARY KEY("source","symbol","timeframe","ts")
);
--> statement-breakpoint
CREATE TABLE "provider_cache" (
	"provider" text NOT NULL,
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"first_ts" bigint,
	"last_ts" bigint,
	"bar_count" integer NOT NULL,
	CONSTRAINT "provider_cache_provider_symbol_timeframe_pk" PRIMARY KEY("provider","symbol","timeframe")
);
