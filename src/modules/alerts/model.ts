/** @module modules/alerts/model — schemas and OpenAPI text of /api/alerts/v2 (alert rules and their webhook deliveries). */
import { t, type Static } from 'elysia';
import { BREAKOUT_STATES, literalUnion, PATTERN_TYPES, SCORE_BANDS, TIMEFRAMES } from '../../domain/signal';
import { RULE_DIRECTIONS } from '../../db/repositories/alert-rules';
import { DELIVERY_STATUSES } from '../../db/repositories/webhooks';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { idParam, symbolList, Timestamps } from '../shared/account';

export const MAX_RULE_NAME_LENGTH = 100;
export const MAX_RULE_SYMBOLS = 500;
/** The longest cooldown: 30 days. */
export const MAX_COOLDOWN_MINUTES = 43_200;

const listOf = <T extends Parameters<typeof t.Array>[0]>(field: string, item: T, values: readonly string[], description: string) =>
  t.Array(item, { minItems: 1, maxItems: values.length, uniqueItems: true, description, error: `Body field '${field}' must be a non-empty list without repeats of: ${values.join(', ')}` });

const WebhookIn = t.Object(
  {
    url: t.String({ minLength: 9, maxLength: 2048, description: 'https:// only; an address resolving to a loopback, private or link-local range is refused', examples: ['https://hooks.example.com/breakline'], error: "Body field 'channels.webhook.url' must be an https:// URL (at most 2048 characters)" }),
    rotateSecret: t.Optional(t.Boolean({ description: 'PATCH: issue a new signing secret for the same URL' })),
  },
  { additionalProperties: false },
);

const ChannelsIn = t.Object(
  {
    inApp: t.Optional(t.Boolean({ description: 'An in-app notification (GET /api/notifications); default true' })),
    webhook: t.Optional(t.Union([WebhookIn, t.Null()], { description: 'A signed POST to your URL (pro tier and above); null removes it' })),
  },
  { additionalProperties: false },
);

const ruleFields = {
  name: t.String({ minLength: 1, maxLength: MAX_RULE_NAME_LENGTH, examples: ['Strong semis breaking out'], error: `Body field 'name' must be 1–${MAX_RULE_NAME_LENGTH} characters` }),
  symbols: symbolList('symbols', 1, MAX_RULE_SYMBOLS, 'The symbols watched (or give watchlistId instead)'),
  watchlistId: idParam('wl', 'watchlist'),
  patternTypes: listOf('patternTypes', literalUnion(PATTERN_TYPES), PATTERN_TYPES, 'Pattern types that fire; absent → any'),
  minBand: { ...literalUnion(SCORE_BANDS), description: 'Lowest score band that fires (elite > strong > watchlist > ignore)', error: `Body field 'minBand' must be one of: ${SCORE_BANDS.join(', ')}` },
  minScore: t.Number({ minimum: 0, maximum: 100, description: 'Lowest finalScore that fires (kept to 0.01)', error: "Body field 'minScore' must be a number from 0 to 100" }),
  timeframe: { ...literalUnion(TIMEFRAMES), description: 'The scan the rule watches; default daily', error: `Body field 'timeframe' must be one of: ${TIMEFRAMES.join(', ')}` },
  direction: { ...literalUnion(RULE_DIRECTIONS), description: 'long, short or any (default)', error: `Body field 'direction' must be one of: ${RULE_DIRECTIONS.join(', ')}` },
  states: listOf('states', literalUnion(BREAKOUT_STATES), BREAKOUT_STATES, 'Breakout states in which a signal fires the rule; default [triggered]'),
  cooldownMinutes: t.Integer({ minimum: 0, maximum: MAX_COOLDOWN_MINUTES, description: 'After firing for a symbol, the rule stays quiet for that symbol this long; default 60', error: `Body field 'cooldownMinutes' must be an integer from 0 to ${MAX_COOLDOWN_MINUTES}` }),
  enabled: t.Boolean({ description: 'Default true' }),
  channels: ChannelsIn,
};

const EXAMPLE_RULE_IN = { name: 'Strong semis breaking out', watchlistId: 'wl_8k2qd0xw5n3c7v1b9m4f', minBand: 'strong', timeframe: 'daily', direction: 'long', states: ['triggered', 'confirmed'], cooldownMinutes: 240, channels: { inApp: true, webhook: { url: 'https://hooks.example.com/breakline' } } };

export const CreateRuleBody = t.Object(
  {
    name: ruleFields.name,
    symbols: t.Optional(ruleFields.symbols),
    watchlistId: t.Optional(ruleFields.watchlistId),
    patternTypes: t.Optional(ruleFields.patternTypes),
    minBand: t.Optional(ruleFields.minBand),
    minScore: t.Optional(ruleFields.minScore),
    timeframe: t.Optional(ruleFields.timeframe),
    direction: t.Optional(ruleFields.direction),
    states: t.Optional(ruleFields.states),
    cooldownMinutes: t.Optional(ruleFields.cooldownMinutes),
    enabled: t.Optional(ruleFields.enabled),
    channels: t.Optional(ruleFields.channels),
  },
  { additionalProperties: false, description: 'Exactly one of symbols and watchlistId; at least one channel', examples: [EXAMPLE_RULE_IN] },
);
export type CreateRuleBody = Static<typeof CreateRuleBody>;

const nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);
export const UpdateRuleBody = t.Object(
  {
    name: t.Optional(ruleFields.name),
    symbols: t.Optional(ruleFields.symbols),
    watchlistId: t.Optional(ruleFields.watchlistId),
    patternTypes: t.Optional(nullable(ruleFields.patternTypes)),
    minBand: t.Optional(nullable(ruleFields.minBand)),
    minScore: t.Optional(nullable(ruleFields.minScore)),
    timeframe: t.Optional(ruleFields.timeframe),
    direction: t.Optional(ruleFields.direction),
    states: t.Optional(ruleFields.states),
    cooldownMinutes: t.Optional(ruleFields.cooldownMinutes),
    enabled: t.Optional(ruleFields.enabled),
    channels: t.Optional(ruleFields.channels),
  },
  { additionalProperties: false, description: 'Only the fields sent change; symbols or watchlistId replaces the target; null clears an optional filter', examples: [{ enabled: false }, { minScore: 80, minBand: null }] },
);
export type UpdateRuleBody = Static<typeof UpdateRuleBody>;

export const RuleParams = t.Object({ id: idParam('rul', 'alert rule') });
export const RuleQuery = t.Object(PageQuery);
export type RuleQuery = Static<typeof RuleQuery>;

export const RuleSchema = t.Object(
  {
    id: t.String({ description: 'rul_…' }),
    name: t.String(),
    symbols: t.Union([t.Array(t.String()), t.Null()], { description: 'Null when the rule watches a watchlist' }),
    watchlistId: t.Union([t.String(), t.Null()]),
    patternTypes: t.Union([t.Array(literalUnion(PATTERN_TYPES)), t.Null()], { description: 'Null → any' }),
    minBand: t.Union([literalUnion(SCORE_BANDS), t.Null()]),
    minScore: t.Union([t.Number(), t.Null()]),
    timeframe: literalUnion(TIMEFRAMES),
    direction: literalUnion(RULE_DIRECTIONS),
    states: t.Array(literalUnion(BREAKOUT_STATES)),
    cooldownMinutes: t.Integer(),
    enabled: t.Boolean(),
    channels: t.Object({
      inApp: t.Boolean(),
      webhook: t.Union([
        t.Object({
          url: t.String(),
          secret: t.Optional(t.String({ description: 'whsec_…: the Standard Webhooks signing secret, shown only when it is made (create, a new URL, rotateSecret)' })),
        }),
        t.Null(),
      ]),
    }),
    ...Timestamps,
  },
  {
    title: 'AlertRule',
    examples: [
      {
        id: 'rul_3m9x0c2v7b1n5q8w4k6d',
        ...EXAMPLE_RULE_IN,
        symbols: null,
        patternTypes: null,
        minScore: null,
        enabled: true,
        channels: { inApp: true, webhook: { url: 'https://hooks.example.com/breakline', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } },
        createdAt: '2026-11-20T14:02:11.000Z',
        updatedAt: '2026-11-20T14:02:11.000Z',
      },
    ],
  },
);
export type RuleSchema = Static<typeof RuleSchema>;

export const RulePage = t.Object({ items: t.Array(RuleSchema), pagination: PageMetaSchema }, { title: 'AlertRulePage' });
export type RulePage = Static<typeof RulePage>;

export const DeliverySchema = t.Object(
  {
    id: t.String({ description: 'whd_…, sent as the webhook-id header' }),
    alertId: t.String({ description: 'The dispatch (alertId of alerts.dispatched)' }),
    url: t.String(),
    status: literalUnion(DELIVERY_STATUSES),
    attempts: t.Integer(),
    nextAttemptAt: t.Union([t.String({ format: 'date-time' }), t.Null()], { description: 'When a pending delivery is tried again; null once finished' }),
    payload: t.String({ description: 'The JSON body exactly as signed and sent' }),
    createdAt: t.String({ format: 'date-time' }),
    finishedAt: t.Union([t.String({ format: 'date-time' }), t.Null()]),
    attemptLog: t.Array(
      t.Object({
        attempt: t.Integer(),
        at: t.String({ format: 'date-time' }),
        statusCode: t.Union([t.Integer(), t.Null()], { description: 'The receiver’s HTTP status; null when it did not answer' }),
        error: t.Union([t.String(), t.Null()]),
        durationMs: t.Integer(),
      }),
    ),
  },
  {
    title: 'WebhookDelivery',
    examples: [
      {
        id: 'whd_0p3n7c1x9v5b2m8q4w6k',
        alertId: 'alr_5h2k8d0x3c7v1b9m4n6q',
        url: 'https://hooks.example.com/breakline',
        status: 'delivered',
        attempts: 2,
        nextAttemptAt: null,
        payload: '{"type":"alerts.dispatched","timestamp":"2026-11-20T21:05:00.000Z","data":{…}}',
        createdAt: '2026-11-20T21:05:00.000Z',
        finishedAt: '2026-11-20T21:05:31.000Z',
        attemptLog: [
          { attempt: 1, at: '2026-11-20T21:05:00.000Z', statusCode: 503, error: 'HTTP 503', durationMs: 41 },
          { attempt: 2, at: '2026-11-20T21:05:30.000Z', statusCode: 200, error: null, durationMs: 38 },
        ],
      },
    ],
  },
);
export type DeliverySchema = Static<typeof DeliverySchema>;
export const DeliveryPage = t.Object({ items: t.Array(DeliverySchema), pagination: PageMetaSchema }, { title: 'WebhookDeliveryPage' });
export type DeliveryPage = Static<typeof DeliveryPage>;

const TAGS = ['Alerts'];
const FIRING =
  'Every persisted scan run evaluates every enabled rule of its timeframe: a signal of a watched symbol whose pattern type, band, score, direction and state the rule accepts fires it — once per rule and signal, and not again for the same symbol within the cooldown. Firing writes an in-app notification and/or a webhook delivery and publishes `alerts.dispatched` on the stream.';
const WEBHOOKS =
  'Webhooks (pro tier and above): a POST of `{type: "alerts.dispatched", timestamp, data}` signed as Standard Webhooks — `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body with the secret>` — retried with exponential backoff (ALERT_WEBHOOK_MAX_ATTEMPTS, ALERT_WEBHOOK_BACKOFF_SECONDS) until a 2xx; redirects are not followed; https:// only, and an address in a loopback, private or link-local range is refused.';
export const ALERT_DOCS = {
  list: { tags: TAGS, summary: 'List your alert rules', description: `Your rules, newest first, in the pagination envelope. ${FIRING} A session or an API key.` },
  get: { tags: TAGS, summary: 'One of your alert rules', description: 'Another user’s rule is 404. A session or an API key.' },
  create: { tags: TAGS, summary: 'Create an alert rule', description: `${FIRING} ${WEBHOOKS} The signing secret is in this answer (and after a new URL or rotateSecret) only. Caps per tier: ALERT_RULES_PER_TIER (default 5, 50, 500). Needs a session. Send Idempotency-Key to make a retry safe.` },
  update: { tags: TAGS, summary: 'Change an alert rule', description: 'Only the fields sent change. Needs a session; another user’s rule is 404.' },
  delete: { tags: TAGS, summary: 'Delete an alert rule', description: 'Deletes the rule with its dispatches and delivery log; notifications it made stay. Needs a session.' },
  deliveries: { tags: TAGS, summary: 'Webhook delivery log of a rule', description: `Every delivery of the rule with each attempt (status or error, duration), newest first. ${WEBHOOKS} A session or an API key.` },
};
