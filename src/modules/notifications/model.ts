/** @module modules/notifications/model — schemas and OpenAPI text of /api/notifications and /api/breakouts/notifications. */
import { t, type Static } from 'elysia';
import { BREAKOUT_STATES, DIRECTIONS, literalUnion, TIMEFRAMES } from '../../domain/signal';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { idParam } from '../shared/account';
import { oneOf, SymbolParam } from '../shared/params';

export const NotificationQuery = t.Object({
  ...PageQuery,
  unread: t.Optional(t.Boolean({ description: 'true: unread ones only', error: "Query parameter 'unread' must be true or false" })),
});
export type NotificationQuery = Static<typeof NotificationQuery>;
export const NotificationParams = t.Object({ id: idParam('ntf', 'notification') });

export const NotificationSchema = t.Object(
  {
    id: t.String({ description: 'ntf_…' }),
    kind: t.Literal('alert', { description: 'An alert rule of yours fired' }),
    title: t.String(),
    alertId: t.String({ description: 'The dispatch (alertId of alerts.dispatched)' }),
    rule: t.Object({ id: t.String(), name: t.String({ description: 'As it was named when it fired' }) }),
    signalId: t.String(),
    symbol: t.String(),
    timeframe: t.String(),
    patternType: t.String(),
    state: t.String({ description: 'The signal’s state when the rule fired' }),
    finalScore: t.Number(),
    scoreBand: t.String(),
    createdAt: t.String({ format: 'date-time' }),
    readAt: t.Union([t.String({ format: 'date-time' }), t.Null()]),
  },
  {
    title: 'Notification',
    examples: [
      {
        id: 'ntf_2b7x9c0v3n5m1q8w4k6d',
        kind: 'alert',
        title: 'NVDA flat_base triggered (daily, score 78, strong)',
        alertId: 'alr_5h2k8d0x3c7v1b9m4n6q',
        rule: { id: 'rul_3m9x0c2v7b1n5q8w4k6d', name: 'Strong semis breaking out' },
        signalId: 'NVDA-flat_base-2026-11-18T00:00:00.000Z',
        symbol: 'NVDA',
        timeframe: 'daily',
        patternType: 'flat_base',
        state: 'triggered',
        finalScore: 78.4,
        scoreBand: 'strong',
        createdAt: '2026-11-20T21:05:00.000Z',
        readAt: null,
      },
    ],
  },
);
export type NotificationSchema = Static<typeof NotificationSchema>;

export const NotificationPage = t.Object(
  { items: t.Array(NotificationSchema), pagination: PageMetaSchema, unreadCount: t.Integer({ description: 'All your unread notifications (not only this page)' }) },
  { title: 'NotificationPage' },
);
export type NotificationPage = Static<typeof NotificationPage>;
export const ReadAllResponse = t.Object({ updated: t.Integer({ description: 'Notifications marked read now' }), unreadCount: t.Integer() }, { title: 'NotificationsReadAll', examples: [{ updated: 3, unreadCount: 0 }] });
export type ReadAllResponse = Static<typeof ReadAllResponse>;

export const BreakoutNotificationQuery = t.Object({
  ...PageQuery,
  watchlistId: t.Optional(idParam('wl', 'watchlist')),
  symbol: t.Optional(SymbolParam),
  timeframe: t.Optional(oneOf('timeframe', TIMEFRAMES, 'Only signals of this timeframe')),
});
export type BreakoutNotificationQuery = Static<typeof BreakoutNotificationQuery>;

export const BreakoutEventSchema = t.Object(
  {
    id: t.String({ description: 'The event’s sequence number (events are listed in the order they were recorded)' }),
    signalId: t.String(),
    symbol: t.String(),
    timeframe: t.String({ description: TIMEFRAMES.join(' | ') }),
    patternType: t.String(),
    direction: literalUnion(DIRECTIONS),
    from: t.Union([t.String(), t.Null()], { description: `The state before (${BREAKOUT_STATES.join(' | ')}); null when the signal was first surfaced` }),
    to: t.String({ description: 'The state after' }),
    price: t.Number({ description: 'Close at the change' }),
    at: t.String({ format: 'date-time', description: 'Bar time of the change' }),
    recordedAt: t.String({ format: 'date-time' }),
    finalScore: t.Number(),
    scoreBand: t.String(),
    watchlistIds: t.Array(t.String(), { description: 'Your watchlists holding the symbol' }),
  },
  {
    title: 'BreakoutEvent',
    examples: [
      {
        id: '48213',
        signalId: 'NVDA-flat_base-2026-11-18T00:00:00.000Z',
        symbol: 'NVDA',
        timeframe: 'daily',
        patternType: 'flat_base',
        direction: 'long',
        from: 'forming',
        to: 'triggered',
        price: 152.04,
        at: '2026-11-20T00:00:00.000Z',
        recordedAt: '2026-11-20T21:05:00.000Z',
        finalScore: 78.4,
        scoreBand: 'strong',
        watchlistIds: ['wl_8k2qd0xw5n3c7v1b9m4f'],
      },
    ],
  },
);
export const BreakoutEventPage = t.Object({ items: t.Array(BreakoutEventSchema), pagination: PageMetaSchema }, { title: 'BreakoutEventPage' });
export type BreakoutEventPage = Static<typeof BreakoutEventPage>;

const TAGS = ['Notifications'];
export const NOTIFICATION_DOCS = {
  list: { tags: TAGS, summary: 'Your notifications', description: 'What your alert rules fired (in-app channel), newest first, in the pagination envelope, with your unread count. `unread=true` lists unread ones only. A session or an API key.' },
  read: { tags: TAGS, summary: 'Mark a notification read', description: 'Sets readAt once (marking it again keeps the first time). Another user’s notification is 404. Needs a session.' },
  readAll: { tags: TAGS, summary: 'Mark all your notifications read', description: 'Answers how many were marked. Needs a session.' },
  breakouts: {
    tags: TAGS,
    summary: 'Breakout events on your watchlists',
    description: 'Every state change of every signal of a symbol on one of your watchlists (a new signal’s first state included), newest first, in the pagination envelope (keyset over the event sequence). Filter by one of your watchlists, a symbol or a timeframe. A session or an API key.',
  },
};
