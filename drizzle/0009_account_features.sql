CREATE TABLE "watchlists" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watchlist_symbols" (
	"watchlist_id" text NOT NULL,
	"symbol" text NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	CONSTRAINT "watchlist_symbols_watchlist_id_symbol_pk" PRIMARY KEY("watchlist_id","symbol")
);
--> statement-breakpoint
CREATE TABLE "alert_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"symbols" text[],
	"watchlist_id" text,
	"pattern_types" text[],
	"min_band" text,
	"min_score" real,
	"timeframe" text NOT NULL,
	"direction" text NOT NULL,
	"states" text[] NOT NULL,
	"cooldown_minutes" integer NOT NULL,
	"in_app" boolean NOT NULL,
	"webhook_url" text,
	"webhook_secret" text,
	"enabled" boolean NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_rules_target" CHECK (("alert_rules"."symbols" is null) <> ("alert_rules"."watchlist_id" is null)),
	CONSTRAINT "alert_rules_webhook" CHECK (("alert_rules"."webhook_url" is null) = ("alert_rules"."webhook_secret" is null))
);
--> statement-breakpoint
CREATE TABLE "alert_dispatches" (
	"id" text PRIMARY KEY NOT NULL,
	"rule_id" text NOT NULL,
	"user_id" text NOT NULL,
	"signal_id" text NOT NULL,
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"state" text NOT NULL,
	"run_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"dispatch_id" text NOT NULL,
	"rule_id" text NOT NULL,
	"user_id" text NOT NULL,
	"url" text NOT NULL,
	"payload" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "webhook_deliveries_status" CHECK ("webhook_deliveries"."status" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"alert_id" text NOT NULL,
	"rule_id" text NOT NULL,
	"rule_name" text NOT NULL,
	"signal_id" text NOT NULL,
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"pattern_type" text NOT NULL,
	"state" text NOT NULL,
	"final_score" real NOT NULL,
	"score_band" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"entry_price" double precision NOT NULL,
	"entry_at" timestamp with time zone NOT NULL,
	"exit_price" double precision,
	"exit_at" timestamp with time zone,
	"size" double precision NOT NULL,
	"fees" double precision NOT NULL,
	"notes" text NOT NULL,
	"tags" text[] NOT NULL,
	"signal_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "journal_entries_side" CHECK ("journal_entries"."side" in ('long', 'short')),
	CONSTRAINT "journal_entries_exit" CHECK (("journal_entries"."exit_price" is null) = ("journal_entries"."exit_at" is null))
);
--> statement-breakpoint
CREATE TABLE "exports" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"dataset" text NOT NULL,
	"format" text NOT NULL,
	"filters" jsonb NOT NULL,
	"status" text NOT NULL,
	"row_count" integer,
	"size_bytes" bigint,
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "exports_status" CHECK ("exports"."status" in ('queued', 'running', 'done', 'failed', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "export_chunks" (
	"export_id" text NOT NULL,
	"seq" integer NOT NULL,
	"content" text NOT NULL,
	CONSTRAINT "export_chunks_export_id_seq_pk" PRIMARY KEY("export_id","seq")
);
--> statement-breakpoint
CREATE TABLE "community_posts" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"body" text NOT NULL,
	"signal_id" text,
	"symbols" text[] NOT NULL,
	"hidden" boolean NOT NULL,
	"hidden_reason" text,
	"hidden_by" text,
	"hidden_at" timestamp with time zone,
	"report_count" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"edited_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "community_reports" (
	"post_id" text NOT NULL,
	"user_id" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "community_reports_post_id_user_id_pk" PRIMARY KEY("post_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"route" text NOT NULL,
	"body_hash" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
ALTER TABLE "watchlist_symbols" ADD CONSTRAINT "watchlist_symbols_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_watchlist_id_watchlists_id_fk" FOREIGN KEY ("watchlist_id") REFERENCES "public"."watchlists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_dispatches" ADD CONSTRAINT "alert_dispatches_rule_id_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."alert_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_dispatch_id_alert_dispatches_id_fk" FOREIGN KEY ("dispatch_id") REFERENCES "public"."alert_dispatches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_chunks" ADD CONSTRAINT "export_chunks_export_id_exports_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."exports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_reports" ADD CONSTRAINT "community_reports_post_id_community_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."community_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watchlists_user_idx" ON "watchlists" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "watchlist_symbols_symbol_idx" ON "watchlist_symbols" USING btree ("symbol");--> statement-breakpoint
CREATE INDEX "alert_rules_user_idx" ON "alert_rules" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "alert_rules_timeframe_idx" ON "alert_rules" USING btree ("timeframe","enabled");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_dispatches_rule_signal_idx" ON "alert_dispatches" USING btree ("rule_id","signal_id");--> statement-breakpoint
CREATE INDEX "alert_dispatches_rule_symbol_idx" ON "alert_dispatches" USING btree ("rule_id","symbol","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_rule_idx" ON "webhook_deliveries" USING btree ("rule_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "journal_entries_user_idx" ON "journal_entries" USING btree ("user_id","entry_at","id");--> statement-breakpoint
CREATE INDEX "exports_user_idx" ON "exports" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "exports_status_idx" ON "exports" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "community_posts_feed_idx" ON "community_posts" USING btree ("hidden","created_at","id");--> statement-breakpoint
CREATE INDEX "community_posts_user_idx" ON "community_posts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expiry_idx" ON "idempotency_keys" USING btree ("expires_at");