/**
 * @module domain/events
 * The payloads of the realtime stream (DESIGN §4 "SSE") as TypeBox schemas:
 * what the jobs publish on the event bus, and what an SSE client receives per
 * event name. The schema is the type: the bus, the hub and the route docs all
 * take them from here, and the Redis bus checks what it reads back against them.
 */
import { Type, type Static } from '@sinclair/typebox';
import { JOB_STATUSES } from './backtest';
import { BREAKOUT_STATES, literalUnion, SignalSchema } from './signal';

const DateTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });

export const BreakoutNewEvent = Type.Object({ signal: SignalSchema }, { title: 'BreakoutNewEvent', description: 'A signal surfaced by a persisted scan for the first time' });

export const StateChangeEvent = Type.Object(
  {
    signalId: Type.String(),
    symbol: Type.String(),
    from: Type.Union([literalUnion(BREAKOUT_STATES), Type.Null()], { description: 'null for a signal first seen past forming' }),
    to: literalUnion(BREAKOUT_STATES),
    price: Type.Number({ description: 'Close of the bar that moved it' }),
    at: DateTime('Time of that bar'),
  },
  { title: 'StateChangeEvent' },
);

/** The rule an alert fired for, as its owner sees it (jobs/alert-rules). */
const AlertRuleRef = Type.Object({ id: Type.String(), name: Type.String() }, { title: 'AlertRuleRef', description: 'The rule’s id and name' });

/** What the alert dispatcher publishes: `userId` and `rule` stay on the server except for the owner (stream/visibility). */
export const AlertDispatchedBusEvent = Type.Object(
  {
    alertId: Type.String(),
    signalId: Type.String(),
    symbol: Type.String(),
    ruleId: Type.Optional(Type.String()),
    at: DateTime(),
    userId: Type.Optional(Type.String({ description: 'Owner of the rule that fired; absent for the service’s own alerts' })),
    rule: Type.Optional(AlertRuleRef),
  },
  { title: 'AlertDispatchedBusEvent' },
);

/** `alerts.dispatched` as a stream sends it: `ruleId`/`rule` only to the owner of a user's rule (and `ruleId` of the service's own alerts to all). */
export const AlertDispatchedEvent = Type.Object(
  {
    alertId: Type.String(),
    signalId: Type.String(),
    symbol: Type.String(),
    ruleId: Type.Optional(Type.String()),
    rule: Type.Optional(AlertRuleRef),
    at: DateTime(),
  },
  { title: 'AlertDispatchedEvent' },
);

const backtestProgressFields = {
  jobId: Type.String({ description: 'btj_…: GET /api/backtest/jobs/{jobId}' }),
  status: literalUnion(JOB_STATUSES),
  phase: Type.String({ description: 'What the job is doing (e.g. loading, backtesting, portfolio, done)' }),
  done: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
  at: DateTime(),
};

/** What a universe backtest job publishes: `userId` is its owner, the only one whose stream receives it. */
export const BacktestProgressBusEvent = Type.Object({ ...backtestProgressFields, userId: Type.String() }, { title: 'BacktestProgressBusEvent' });

/** `backtest.progress` as the owner's stream sends it (the owner's id is never sent). */
export const BacktestProgressEvent = Type.Object(backtestProgressFields, { title: 'BacktestProgressEvent' });

export const QuoteEvent = Type.Object(
  {
    symbol: Type.String(),
    price: Type.Number(),
    volume: Type.Number({ description: 'Session volume so far' }),
    ts: DateTime('Time of the quote'),
    source: Type.String({ description: 'Data provider, e.g. synthetic' }),
  },
  { title: 'QuoteEvent' },
);

export const HelloEvent = Type.Object(
  {
    connectionId: Type.String({ description: 'sse_…' }),
    channels: Type.Array(Type.String()),
    symbols: Type.Array(Type.String()),
    serverTime: DateTime(),
  },
  { title: 'HelloEvent' },
);

export const RESET_REASONS = ['too_old', 'unknown_id', 'gap'] as const;

export const ResetEvent = Type.Object(
  {
    reason: literalUnion(RESET_REASONS, {
      description: 'too_old: the id fell out of the replay buffer; unknown_id: not an id this service gave out; gap: events after lastEventId could not be delivered (the event log no longer held them), sent to open streams',
    }),
    lastEventId: Type.String({ description: 'The id the client resumed from (for gap: the last event delivered before it)' }),
    resumeFrom: Type.String({ description: 'The id the stream continues after; refetch state (e.g. GET /api/breakouts) before relying on it' }),
  },
  { title: 'ResetEvent' },
);

export type BreakoutNewEvent = Static<typeof BreakoutNewEvent>;
export type StateChangeEvent = Static<typeof StateChangeEvent>;
export type AlertDispatchedBusEvent = Static<typeof AlertDispatchedBusEvent>;
export type AlertDispatchedEvent = Static<typeof AlertDispatchedEvent>;
export type BacktestProgressBusEvent = Static<typeof BacktestProgressBusEvent>;
export type BacktestProgressEvent = Static<typeof BacktestProgressEvent>;
export type QuoteEvent = Static<typeof QuoteEvent>;
export type HelloEvent = Static<typeof HelloEvent>;
export type ResetEvent = Static<typeof ResetEvent>;
