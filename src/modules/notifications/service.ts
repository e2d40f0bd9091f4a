/**
 * @module modules/notifications/service
 * A user's in-app notifications (list, mark read, mark all read) and the
 * breakout events of the symbols on their watchlists: plain functions of
 * (deps, principal, input), each scoped to the principal.
 */
import type { Principal } from '../../auth';
import { timestampKey } from '../../db/repositories/keyset';
import type { NotificationRow } from '../../db/schema';
import { keysetPage, readPage } from '../../pagination';
import type { Services } from '../../services';
import { notYours } from '../shared/account';
import type { BreakoutEventPage, BreakoutNotificationQuery, NotificationPage, NotificationQuery, NotificationSchema, ReadAllResponse } from './model';

export type NotificationDeps = Pick<Services, 'account' | 'scans'>;

function notificationView(n: NotificationRow): NotificationSchema {
  return {
    id: n.id,
    kind: 'alert',
    title: n.title,
    alertId: n.alertId,
    rule: { id: n.ruleId, name: n.ruleName },
    signalId: n.signalId,
    symbol: n.symbol,
    timeframe: n.timeframe,
    patternType: n.patternType,
    state: n.state,
    finalScore: n.finalScore,
    scoreBand: n.scoreBand,
    createdAt: n.createdAt.toISOString(),
    readAt: n.readAt?.toISOString() ?? null,
  };
}

export async function listNotifications(deps: NotificationDeps, principal: Principal, query: NotificationQuery): Promise<NotificationPage> {
  const request = readPage(query);
  const { rows, total, unread } = await deps.account.notifications.page(principal.userId, request, { unread: query.unread });
  const page = keysetPage(rows, request, (r) => timestampKey(r.createdAt, r.id), total);
  return { items: page.items.map(notificationView), pagination: page.pagination, unreadCount: unread };
}

export async function markRead(deps: NotificationDeps, principal: Principal, id: string): Promise<NotificationSchema> {
  const row = await deps.account.notifications.markRead(principal.userId, id, new Date());
  if (!row) throw notYours('notification', id);
  return notificationView(row);
}

export async function markAllRead(deps: NotificationDeps, principal: Principal): Promise<ReadAllResponse> {
  return { updated: await deps.account.notifications.markAllRead(principal.userId, new Date()), unreadCount: 0 };
}

export async function breakoutNotifications(deps: NotificationDeps, principal: Principal, query: BreakoutNotificationQuery): Promise<BreakoutEventPage> {
  const request = readPage(query);
  let held = await deps.account.watchlists.symbolsOfUser(principal.userId);
  if (query.watchlistId !== undefined) {
    if (!(await deps.account.watchlists.get(principal.userId, query.watchlistId))) throw notYours('watchlist', query.watchlistId);
    held = new Map([...held].filter(([, lists]) => lists.includes(query.watchlistId!)));
  }
  const symbols = query.symbol === undefined ? [...held.keys()] : held.has(query.symbol) ? [query.symbol] : [];
  const { rows, total } = await deps.scans.eventsOfSymbols(symbols, { timeframe: query.timeframe }, request);
  const page = keysetPage(rows, request, (r) => [r.event.id, String(r.event.id)], total);
  return {
    items: page.items.map(({ event, signal }) => ({
      id: String(event.id),
      signalId: signal.id,
      symbol: signal.symbol,
      timeframe: signal.timeframe,
      patternType: signal.patternType,
      direction: signal.direction,
      from: event.fromState,
      to: event.toState,
      price: event.price,
      at: event.at.toISOString(),
      recordedAt: event.recordedAt.toISOString(),
      finalScore: signal.finalScore,
      scoreBand: signal.scoreBand,
      watchlistIds: held.get(signal.symbol) ?? [],
    })),
    pagination: page.pagination,
  };
}
