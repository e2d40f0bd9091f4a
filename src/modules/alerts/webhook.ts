/**
 * @module modules/alerts/webhook
 * The body Breakline POSTs to an alert rule's webhook (jobs/alert-rules
 * `webhookPayload`), published in the OpenAPI document's `webhooks` section
 * (OpenAPI 3.1 §4.8.1 "webhooks"): a receiver's generator types it as it
 * types a response. Signed as Standard Webhooks (jobs/webhooks): the
 * `webhook-id`, `webhook-timestamp` and `webhook-signature` headers.
 */
import { t, type Static } from 'elysia';
import { BREAKOUT_STATES, DIRECTIONS, literalUnion, PATTERN_TYPES, SCORE_BANDS, TIMEFRAMES } from '../../domain/signal';

export const AlertWebhookPayload = t.Object(
  {
    type: t.Literal('alerts.dispatched'),
    timestamp: t.String({ format: 'date-time', description: 'When the dispatch was recorded' }),
    data: t.Object({
      alertId: t.String(),
      signalId: t.String(),
      symbol: t.String(),
      ruleId: t.String(),
      at: t.String({ format: 'date-time', description: 'When the rule fired' }),
      rule: t.Object({ id: t.String(), name: t.String() }),
      signal: t.Object({
        id: t.String(),
        symbol: t.String(),
        timeframe: literalUnion(TIMEFRAMES),
        patternType: literalUnion(PATTERN_TYPES),
        direction: literalUnion(DIRECTIONS),
        breakoutState: literalUnion(BREAKOUT_STATES),
        finalScore: t.Number(),
        scoreBand: literalUnion(SCORE_BANDS),
        triggerPrice: t.Number(),
        target1: t.Number(),
        stopLoss: t.Union([t.Number(), t.Null()]),
        price: t.Number(),
        detectedAt: t.String({ format: 'date-time' }),
      }),
    }),
  },
  { title: 'AlertWebhookPayload', additionalProperties: false },
);
export type AlertWebhookPayload = Static<typeof AlertWebhookPayload>;

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', in: 'header' as const, required: true, description: 'The delivery id, the same on every retry (de-duplicate by it)', schema: { type: 'string' as const } },
  { name: 'webhook-timestamp', in: 'header' as const, required: true, description: 'Unix seconds of this attempt (refuse ones far from your clock)', schema: { type: 'integer' as const } },
  { name: 'webhook-signature', in: 'header' as const, required: true, description: 'v1,base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)), the secret being the rule’s whsec_… key base64-decoded (Standard Webhooks)', schema: { type: 'string' as const } },
];

/** The document's `webhooks` section: one entry per event Breakline sends. */
export const WEBHOOKS = {
  'alerts.dispatched': {
    post: {
      summary: 'An alert rule fired',
      description: 'Sent to the rule’s webhook URL; retried with backoff until a 2xx answer (at most WEBHOOK_MAX_ATTEMPTS times).',
      parameters: SIGNATURE_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: JSON.parse(JSON.stringify(AlertWebhookPayload)) } } },
      responses: { '2XX': { description: 'Received; any other answer is retried' } },
    },
  },
};
