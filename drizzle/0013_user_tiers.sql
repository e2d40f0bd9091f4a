CREATE TABLE "user_tiers" (
	"user_id" text PRIMARY KEY NOT NULL,
	"tier" text NOT NULL,
	"stated_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "user_tiers_tier" CHECK ("user_tiers"."tier" in ('free', 'pro', 'enterprise')),
	CONSTRAINT "user_tiers_source" CHECK ("user_tiers"."source" in ('session', 'operator'))
);
