/**
 * @module domain/explanation
 * The shapes an explanation shares across layers: the signal it explains (a
 * persisted one, or the subset of fields a client may send), and what its
 * grounding says (src/ai/grounding computes it, the explanation cache stores
 * it, /api/explain returns it): for each bullet, every number it states and
 * the fact that number matched.
 */
import { Type, type Static } from '@sinclair/typebox';
import { SignalSchema } from './signal';

export const BulletGroundingSchema = Type.Object(
  {
    bullet: Type.Integer({ minimum: 0, description: 'Index of the bullet in `bullets`' }),
    citations: Type.Array(
      Type.Object({
        text: Type.String({ description: 'The number as the bullet writes it, e.g. `$182.40` or `58%`' }),
        fact: Type.String({ description: 'Path of the fact it matches, e.g. `levels.trigger`' }),
        value: Type.Union([Type.Number(), Type.String()], { description: "The fact's value: a number, or the text the number was read from" }),
      }),
    ),
  },
  { title: 'BulletGrounding' },
);
export type BulletGrounding = Static<typeof BulletGroundingSchema>;

/** The fields of a BreakoutSignal the spec requires; the rest of `SignalSchema` is optional when a client sends a signal to explain. */
export const EXPLAIN_REQUIRED_FIELDS = ['symbol', 'timeframe', 'patternType', 'direction', 'finalScore'] as const;

/**
 * A signal to explain: a persisted one (a full `Signal`) or one a client
 * sends (POST /api/explain), which need only carry the spec's required fields.
 */
export const ExplainableSignalSchema = Type.Composite(
  [Type.Pick(SignalSchema, EXPLAIN_REQUIRED_FIELDS), Type.Partial(Type.Omit(SignalSchema, EXPLAIN_REQUIRED_FIELDS))],
  { title: 'ExplainSignal' },
);
export type ExplainableSignal = Static<typeof ExplainableSignalSchema>;
