/** @module modules/realtime/model — schemas and OpenAPI text of the Realtime tag (GET /api/stream). */
import { t } from 'elysia';
import { CHANNELS } from '../../stream/bus';
import { ErrorSchema, SYMBOL_PATTERN } from '../shared/params';

const CHANNEL = CHANNELS.map((c) => c.replace('.', '\\.')).join('|');
const SYMBOL = SYMBOL_PATTERN.slice(1, -1);
/** `<position>` or `<position>-<n>`; ids of the earlier `<ms>-<seq>-<n>` form still pass (and are answered with `reset`). */
const EVENT_ID = '\\d{1,16}(-\\d{1,16}){0,2}';

export const StreamQuery = t.Object({
  channels: t.Optional(
    t.String({
      pattern: `^$|^(${CHANNEL})(,(${CHANNEL}))*$`,
      description: `Comma-separated channels: ${CHANNELS.join(', ')}. Absent: all of them; empty: none (quotes only).`,
      examples: ['breakouts.new,breakouts.state_change'],
      error: `Query parameter 'channels' must be a comma-separated list of: ${CHANNELS.join(', ')}`,
    }),
  ),
  symbols: t.Optional(
    t.String({
      pattern: `^$|^${SYMBOL}(,${SYMBOL})*$`,
      description: 'Comma-separated symbols to receive `quote` events for (case-insensitive; at most SSE_MAX_SYMBOLS, default 50).',
      examples: ['AAPL,MSFT'],
      error: `Query parameter 'symbols' must be a comma-separated list of symbols matching ${SYMBOL_PATTERN}`,
    }),
  ),
  lastEventId: t.Optional(
    t.String({
      pattern: `^${EVENT_ID}$`,
      description: 'Resume after this event id, for a first connect (browsers cannot set Last-Event-ID then). The Last-Event-ID header wins.',
      examples: ['4211'],
      error: "Query parameter 'lastEventId' must be an event id of this stream, e.g. 4211",
    }),
  ),
});

export const StreamHeaders = t.Object({
  'last-event-id': t.Optional(t.String({ description: 'The id of the last event received; sent by EventSource on reconnect. One this stream never gave out is answered with a `reset` event.' })),
});

const EVENTS_TEXT = [
  'Server-Sent Events (`text/event-stream; charset=utf-8`), one JSON `data:` line per event:',
  '- `hello` `{connectionId, channels, symbols, serverTime}` once on connect, with `retry:` (the reconnection delay);',
  '- `breakouts.new` `{signal}` (a BreakoutSignal);',
  '- `breakouts.state_change` `{signalId, symbol, from, to, price, at}`;',
  '- `alerts.dispatched` `{alertId, signalId, symbol, ruleId?, at}` (a signed-in owner of the rule also gets `ruleId` and `rule`);',
  '- `backtest.progress` `{jobId, status, phase, done, total, at}` of your own universe backtest jobs, on signed-in streams only (no one else receives them);',
  '- `quote` `{symbol, price, volume, ts, source}` for the `symbols` asked, at most one per symbol per quote interval;',
  '- `reset` `{reason, lastEventId, resumeFrom}` when a resume id is older than the replay buffer (`too_old`) or not one of ours (`unknown_id`), or on an open stream when events after `lastEventId` could not be delivered (`gap`): refetch state, the stream goes on from `resumeFrom`.',
  'Comments `: ping` every 15 s (SSE_PING_MS) keep proxies open.',
  'Every event has an `id:`: `<position>` for bus events (the position in the durable event log; the same on every instance), `<position>-<n>` for the n-th event this instance made after that bus event. Ids only grow; reconnecting with `Last-Event-ID` (or `?lastEventId=`) replays every missed bus event in order, then goes live; quotes are not replayed (the current quote is sent again).',
].join('\n');

export const REALTIME_DOCS = {
  stream: {
    tags: ['Realtime'],
    summary: 'Server-Sent Events stream',
    description: [
      'Breakouts, state changes, dispatched alerts, your backtest jobs\' progress and per-symbol quotes as they happen. The response never ends on its own: read it incrementally and cancel the body when done.',
      '',
      EVENTS_TEXT,
      '',
      '400 for an unknown channel, a malformed or unknown symbol, too many symbols or a malformed `lastEventId` (before the stream opens); 429 past the per-client stream cap or the request rate limit; 503 with `Retry-After` when this instance holds its maximum of streams.',
    ].join('\n'),
    responses: {
      200: {
        description: 'The event stream (text/event-stream; charset=utf-8; Cache-Control: no-cache; X-Accel-Buffering: no). It stays open.',
        content: { 'text/event-stream': { schema: { type: 'string' as const, description: EVENTS_TEXT } } },
      },
      400: { description: 'Unknown channel, bad symbol, too many symbols or a malformed lastEventId', content: { 'application/json': { schema: ErrorSchema } } },
      429: { description: 'Too many open streams for this client, or the rate limit', content: { 'application/json': { schema: ErrorSchema } } },
      503: { description: 'This instance holds its maximum of streams; retry after Retry-After seconds', content: { 'application/json': { schema: ErrorSchema } } },
    },
  },
};
