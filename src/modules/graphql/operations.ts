/**
 * @module modules/graphql/operations
 * Every GraphQL field over a REST operation, by module (graphql/operations/*):
 * its route (whose rate-limit class the field takes: graphql/costs), its
 * arguments (the REST route's query, path and body schemas, checked by them
 * with their defaults and messages: graphql/operation), its result (the REST
 * response schema, typed by graphql/types) and the very service function the
 * REST route calls. Who may use a field is its REST route's row of the one
 * authorisation table (auth/route-access), read by graphql/schema: the same
 * scope and tier as the route.
 */
import type { Operation } from './operation';
import { ACCOUNT_MUTATIONS, ACCOUNT_QUERIES } from './operations/account';
import { COMMUNITY_MUTATIONS, COMMUNITY_QUERIES } from './operations/community';
import { MARKET_QUERIES } from './operations/market';
import { SIGNAL_QUERIES } from './operations/signals';
import { TRANSPARENCY_QUERIES } from './operations/transparency';

export { describe, type Operation, type OperationContext } from './operation';

export const QUERIES: Readonly<Record<string, Operation>> = { ...SIGNAL_QUERIES, ...MARKET_QUERIES, ...TRANSPARENCY_QUERIES, ...COMMUNITY_QUERIES, ...ACCOUNT_QUERIES };

/** Mutations: each over a REST write, under that write's row of the authorisation table. */
export const MUTATIONS: Readonly<Record<string, Operation>> = { ...ACCOUNT_MUTATIONS, ...COMMUNITY_MUTATIONS };
