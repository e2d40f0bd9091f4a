/**
 * @module auth/route-access
 * The one authorisation table (issue 31): every protected REST route, by
 * `METHOD /path` as the route table has it, with the scope an API key needs
 * for it and the lowest tier that may use it. REST routes name their row
 * (`auth: 'POST /api/watchlists'`, plugins/auth); a GraphQL field names its
 * REST route already (graphql/operations, the link its cost uses too) and
 * takes that row, so both APIs apply the same rule to the same operation.
 * A route not in the table is public.
 *
 * Who passes a row: a session (the `__session` cookie) holds every scope; an
 * API key holds the scopes it was given within its owner's current tier
 * (domain/scopes); both need the row's tier. Account writes by session are
 * not tier-gated beyond the per-tier caps of the config (watchlists, rules,
 * keys), as before; a free key is read-only (domain/scopes).
 *
 * @example
 * ROUTE_ACCESS['POST /api/exports']; // => { scope: 'write', tier: 'pro' }
 */
import type { Scope } from '../domain/scopes';
import { FEATURE_TIERS, type Tier } from '../domain/tiers';

export interface RouteAccess {
  /** The scope an API key needs (a session holds them all). */
  scope: Scope;
  /** The lowest tier of the principal, session or key (absent: any). */
  tier?: Tier;
}

const read = { scope: 'read' } as const satisfies RouteAccess;
const write = { scope: 'write' } as const satisfies RouteAccess;
const backtest = { scope: 'backtest' } as const satisfies RouteAccess;
const keys = { scope: 'admin:keys' } as const satisfies RouteAccess;
const readExports = { scope: 'read', tier: FEATURE_TIERS.exports } as const satisfies RouteAccess;
const writeExports = { scope: 'write', tier: FEATURE_TIERS.exports } as const satisfies RouteAccess;

export const ROUTE_ACCESS = {
  'POST /api/keys': keys,
  'GET /api/keys': keys,
  'DELETE /api/keys/:id': keys,

  'GET /api/backtest/walk-forward': backtest,
  'POST /api/backtest/walk-forward': backtest,
  'GET /api/backtest/jobs/:id': backtest,

  'GET /api/watchlists': read,
  'POST /api/watchlists': write,
  'GET /api/watchlists/:id': read,
  'PATCH /api/watchlists/:id': write,
  'DELETE /api/watchlists/:id': write,
  'POST /api/watchlists/:id/symbols': write,
  'DELETE /api/watchlists/:id/symbols/:symbol': write,

  'GET /api/alerts/v2': read,
  'POST /api/alerts/v2': write,
  'GET /api/alerts/v2/:id': read,
  'PATCH /api/alerts/v2/:id': write,
  'DELETE /api/alerts/v2/:id': write,
  'GET /api/alerts/v2/:id/deliveries': read,

  'GET /api/notifications': read,
  'POST /api/notifications/read-all': write,
  'POST /api/notifications/:id/read': write,
  'GET /api/breakouts/notifications': read,

  'GET /api/journal/entries': read,
  'POST /api/journal/entries': write,
  'GET /api/journal/entries/:id': read,
  'PATCH /api/journal/entries/:id': write,
  'DELETE /api/journal/entries/:id': write,
  'GET /api/journal/summary': read,

  'POST /api/exports': writeExports,
  'GET /api/exports': readExports,
  'GET /api/exports/:id': readExports,
  'GET /api/exports/:id/download': readExports,

  'POST /api/community/feed': write,
  'PATCH /api/community/feed/:id': write,
  'DELETE /api/community/feed/:id': write,
  'POST /api/community/feed/:id/report': write,
  'GET /api/community/moderation': read,
  'POST /api/community/feed/:id/moderation': write,
} as const satisfies Record<string, RouteAccess>;

/** A protected route's row name: `METHOD /path`. */
export type ProtectedRoute = keyof typeof ROUTE_ACCESS;

/** The row of a route (`METHOD /path`), or undefined for a public one. */
export function accessOf(route: string): RouteAccess | undefined {
  return (ROUTE_ACCESS as Record<string, RouteAccess>)[route];
}
