/**
 * @module db/schema/explanations
 * Explanations a language model wrote and the grounding check passed, keyed by
 * what they explain: the signal id, the hash of the facts the model was given
 * and the prompt version. The same key answers again without a model call;
 * new facts (a state change, a new ledger outcome) or a new prompt make a new
 * row. Rows are written once and never updated.
 */
import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const explanations = pgTable(
  'explanations',
  {
    signalId: text('signal_id').notNull(),
    /** SHA-256 of the canonical JSON of the facts. */
    factsHash: text('facts_hash').notNull(),
    promptVersion: text('prompt_version').notNull(),
    symbol: text('symbol').notNull(),
    patternType: text('pattern_type').notNull(),
    /** `anthropic` or `openai`. */
    provider: text('provider').notNull(),
    /** The model as the API named it in its answer. */
    model: text('model').notNull(),
    bullets: jsonb('bullets').notNull(),
    grounding: jsonb('grounding').notNull(),
    facts: jsonb('facts').notNull(),
    /** Token counts of the model calls that made it (summed over a retry), as the API reported them. */
    inputTokens: integer('input_tokens').notNull(),
    cachedInputTokens: integer('cached_input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    /** Model calls it took: 1, or 2 when the first answer was refused. */
    attempts: integer('attempts').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.signalId, table.factsHash, table.promptVersion] })],
);

export type ExplanationRow = typeof explanations.$inferSelect;
export type NewExplanationRow = typeof explanations.$inferInsert;
