/**
 * Helpers of the account feature tests: sessions minted with a context's
 * local key, JSON writes, and the checks every owned route shares (401
 * without a credential, the Error shape).
 */
import { expect } from 'bun:test';
import { loadOrCreateLocalKey, mintLocalToken } from '../../src/auth/local-key';
import type { Tier } from '../../src/domain/tiers';
import { errorBody, type ErrorBody, type TestContext } from './app';

/** A `__session` cookie for `userId` at `tier`, minted with the context's local key (local mode). */
export async function sessionCookie(ctx: TestContext, userId: string, tier: Tier = 'free'): Promise<string> {
  const key = await loadOrCreateLocalKey(ctx.config.stateDir);
  const { token } = await mintLocalToken(key, { userId, tier, ttlSeconds: 3600, tierClaim: ctx.config.auth.tierClaim });
  return `__session=${token}`;
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
