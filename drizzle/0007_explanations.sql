CREATE TABLE "explanations" (
	"signal_id" text NOT NULL,
	"facts_hash" text NOT NULL,
	"prompt_version" text NOT NULL,
	"symbol" text NOT NULL,
	"pattern_type" text NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"bullets" jsonb NOT NULL,
	"grounding" jsonb NOT NULL,
	"facts" jsonb NOT NULL,
	"input_tokens" integer NOT NULL,
	"cached_input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"attempts" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "explanations_signal_id_facts_hash_prompt_version_pk" PRIMARY KEY("signal_id","facts_hash","prompt_version")
);
