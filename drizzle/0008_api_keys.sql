CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"tier" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_hash_is_sha256_hex" CHECK ("api_keys"."hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "api_keys_prefix_format" CHECK ("api_keys"."prefix" ~ '^[0-9A-Za-z]{8}$'),
	CONSTRAINT "api_keys_tier" CHECK ("api_keys"."tier" in ('free', 'pro', 'enterprise'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_idx" ON "api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id","created_at");