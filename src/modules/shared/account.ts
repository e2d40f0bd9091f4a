/**
 * @module modules/shared/account
 * What the account feature modules (watchlists, alerts, notifications,
 * journal, exports, community) share: owned-object id parameters, symbol
 * lists checked against the provider, the strict JSON body of a write, and
 * the error statuses their routes document.
 */
import { t, type TSchema } from 'elysia';
import type { Principal } from '../../auth';
import { AppError } from '../../errors';
import type { MarketData } from '../../market-data';
import { SYMBOL_PATTERN, withErrors } from './params';

/** A path parameter holding an id minted by ids.ts with `prefix` (`wl`, `rul`, …). */
export function idParam(prefix: string, what: string) {
  const pattern = `^${prefix}_[0-9a-z]{20}$`;
  return t.String({ pattern, description: `The ${what} id (${prefix}_…)`, examples: [`${prefix}_8k2qd0xw5n3c7v1b9m4f`], error: `Path parameter 'id' must be a ${what} id matching ${pattern}` });
}

/** A ticker in a JSON body (any case; the service upper-cases it). */
export const BodySymbol = t.String({ pattern: SYMBOL_PATTERN, description: 'Ticker, case-insensitive', examples: ['AAPL'] });

/** A body list of tickers with its sentence for a caller who gets it wrong. */
export function symbolList(field: string, minItems: number, maxItems: number, description: string) {
  return t.Array(BodySymbol, {
    minItems,
    maxItems,
    description,
    examples: [['AAPL', 'MSFT', 'NVDA']],
    error: `Body field '${field}' must be a list of ${minItems}–${maxItems} symbols matching ${SYMBOL_PATTERN}`,
  });
}

/**
 * The symbols upper-cased and without repeats, each known to the provider
 * (its universe, or bars for it); the first unknown one is a 400 naming it.
 */
export async function checkedSymbols(marketData: MarketData, symbols: readonly string[], field: string): Promise<string[]> {
  const unique = [...new Set(symbols.map((s) => s.toUpperCase()))];
  const known = await Promise.all(unique.map((s) => marketData.known(s)));
  const unknown = unique.find((_, i) => !known[i]);
  if (unknown !== undefined) throw new AppError('invalid_body', `Body field '${field}': unknown symbol '${unknown}' (not in the ${marketData.provider.name} provider's universe and no bars for it)`);
  return unique;
}

/** A route's strict JSON body (plugins/body-limit's `jsonBody`: size-limited, checked as sent, its limit published) and its type. */
export function jsonBody<S extends TSchema>(limit: number, schema: S) {
  return { jsonBody: { limit, schema }, body: schema };
}

/** `withErrors` for a route that answers 201 Created. */
export function createdWithErrors<S extends TSchema>(ok: S, ...statuses: number[]) {
  const { 200: created, ...errors } = withErrors(ok, ...statuses);
  return { 201: created, ...errors } as { 201: S } & Record<number, TSchema>;
}

/** The "not found" of an object the principal does not own: the same answer as for one that does not exist (BOLA). */
export function notYours(what: string, id: string): AppError {
  return new AppError('not_found', `No ${what} ${id}`);
}

/** Whether the principal has the admin role (`ADMIN_USER_IDS`). */
export function isAdmin(adminUserIds: readonly string[], principal: Principal): boolean {
  return principal.kind === 'session' && adminUserIds.includes(principal.userId);
}

const Iso = (description: string) => t.String({ format: 'date-time', description });
export const Timestamps = { createdAt: Iso('When it was created'), updatedAt: Iso('When it last changed') };
