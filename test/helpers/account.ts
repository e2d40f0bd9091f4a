/**
 * Helpers of the account feature tests: sessions minted with a context's
 * local key, JSON writes, and the checks every owned route shares (401
 * without a credential, the Error shape).
 */
import { expect } from 'bun:test';
import { alertRules, apiKeys, communityPosts, exports, journalEntries, notifications, watchlists, watchlistSymbols } from '../../src/db/schema';
import type { Tier } from '../../src/domain/tiers';
import { errorBody, type ErrorBody, type TestContext } from './app';

/** A `__session` cookie for `userId` at `tier`, valid an hour (the context's `sessionCookie`). */
export function sessionCookie(ctx: TestContext, userId: string, tier: Tier = 'free'): Promise<string> {
  return ctx.sessionCookie(userId, tier, 3600);
}

/** Request init of a JSON write. */
export function send(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** Request init carrying only a credential. */
export const as = (cookieOrKey: string, method = 'GET'): RequestInit => ({
  method,
  headers: cookieOrKey.startsWith('bk_') ? { authorization: `Bearer ${cookieOrKey}` } : { cookie: cookieOrKey },
});

/** The error of a response, asserting its status and the Error shape. */
export async function expectError(response: Response, status: number, code?: string): Promise<ErrorBody> {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  const body = await errorBody(response);
  if (code) expect(body.code).toBe(code);
  return body;
}

/** Asserts every request answers 401 `unauthorized` in the Error shape (no credential sent). */
export async function expectAllUnauthorized(ctx: TestContext, requests: [string, RequestInit?][]): Promise<void> {
  expect(requests.length).toBeGreaterThan(0);
  for (const [path, init] of requests) {
    const response = await ctx.request(path, init);
    if (response.status !== 401) throw new Error(`${init?.method ?? 'GET'} ${path}: expected 401, got ${response.status}`);
    expect((await errorBody(response)).code).toBe('unauthorized');
  }
}

export interface Envelope<T> {
  items: T[];
  pagination: { nextCursor: string | null; hasMore: boolean; total?: number; limit: number; offset: number; order: 'asc' | 'desc' };
}

/** Reads every page of an envelope endpoint by its cursors; asserts the spec's rules on the way (no empty page behind a cursor, last page null). */
export async function allPages<T>(ctx: TestContext, path: string, init: RequestInit, limit: number): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const url: string = `${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const reply: { status: number; body: Envelope<T> } = await ctx.json<Envelope<T>>(url, init);
    expect(reply.status).toBe(200);
    pages++;
    const pagination: Envelope<T>['pagination'] = reply.body.pagination;
    expect(pagination.limit).toBe(limit);
    if (cursor) expect(reply.body.items.length).toBeGreaterThan(0);
    items.push(...reply.body.items);
    expect(pagination.hasMore).toBe(pagination.nextCursor !== null);
    cursor = pagination.nextCursor;
  } while (cursor);
  return { items, pages };
}

/** The id every account path parameter documents as its example (modules/shared/account `idParam`). */
export const exampleId = (prefix: string) => `${prefix}_8k2qd0xw5n3c7v1b9m4f`;

/**
 * Makes sure `userId` owns an object under each documented example id (taken
 * over from whoever had it before; an API key, a
 * watchlist, an alert rule, a notification, a journal entry, a done export, a
 * community post, by `postAuthor` when given: one reports others' posts),
 * putting back whichever a DELETE removed: a client that tries the
 * documented examples (the fuzz suite) then reaches the success paths of the
 * routes on owned objects too.
 */
export async function seedDocumentedExamples(ctx: TestContext, userId: string, options: { postAuthor?: string } = {}): Promise<void> {
  const { db } = ctx.services.database;
  const at = new Date('2026-11-20T21:05:00.000Z');
  await db.insert(watchlists).values({ id: exampleId('wl'), userId, name: 'Semis', createdAt: at, updatedAt: at }).onConflictDoUpdate({ target: watchlists.id, set: { userId } });
  // AAPL, and AMD: the example of DELETE …/symbols/{symbol}.
  await db.insert(watchlistSymbols).values([{ watchlistId: exampleId('wl'), symbol: 'AAPL', addedAt: at }, { watchlistId: exampleId('wl'), symbol: 'AMD', addedAt: at }]).onConflictDoNothing();
  await db
    .insert(alertRules)
    .values({ id: exampleId('rul'), userId, name: 'AAPL triggers', symbols: ['AAPL'], watchlistId: null, patternTypes: null, minBand: null, minScore: null, timeframe: 'daily', direction: 'any', states: ['triggered'], cooldownMinutes: 60, inApp: true, webhookUrl: null, webhookSecret: null, enabled: true, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({ target: alertRules.id, set: { userId } });
  await db
    .insert(notifications)
    .values({ id: exampleId('ntf'), userId, kind: 'alert', title: 'AAPL bull_flag triggered', alertId: exampleId('alr'), ruleId: exampleId('rul'), ruleName: 'AAPL triggers', signalId: 'sig_example', symbol: 'AAPL', timeframe: 'daily', patternType: 'bull_flag', state: 'triggered', finalScore: 88, scoreBand: 'elite', createdAt: at, readAt: null })
    .onConflictDoUpdate({ target: notifications.id, set: { userId } });
  await db
    .insert(journalEntries)
    .values({ id: exampleId('jrn'), userId, symbol: 'AAPL', side: 'long', entryPrice: 151.4, entryAt: at, exitPrice: null, exitAt: null, size: 100, fees: 1, notes: '', tags: ['breakout'], signalId: null, createdAt: at, updatedAt: at })
    .onConflictDoUpdate({ target: journalEntries.id, set: { userId } });
  await db.insert(exports).values({ id: exampleId('exp'), userId, dataset: 'journal', format: 'csv', filters: {}, status: 'queued', createdAt: new Date() }).onConflictDoUpdate({ target: exports.id, set: { userId } });
  await ctx.services.account.exportJobs.kick();
  // An API key row (not a usable key: its hash is of nothing anyone holds).
  await db
    .insert(apiKeys)
    .values({ id: exampleId('key'), userId, name: 'trading bot', prefix: 'examplek', hash: '0'.repeat(64), tier: 'free', createdAt: at, lastUsedAt: null, revokedAt: null })
    .onConflictDoUpdate({ target: apiKeys.id, set: { userId, revokedAt: null } });
  const author = options.postAuthor ?? userId;
  await db
    .insert(communityPosts)
    .values({ id: exampleId('pst'), userId: author, body: 'AAPL flag triggered on volume', signalId: null, symbols: ['AAPL'], hidden: false, reportCount: 0, createdAt: at })
    .onConflictDoUpdate({ target: communityPosts.id, set: { userId: author } });
}
