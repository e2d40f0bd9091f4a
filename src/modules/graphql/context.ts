/**
 * @module modules/graphql/context
 * What a resolver gets per request: the services, the request (its
 * credential), the API version, the caller, and the request's DataLoaders,
 * so a page of signals asks each symbol's snapshot and earnings once.
 */
import DataLoader from 'dataloader';
import type { Principal, RouteAccess } from '../../auth';
import { readPage } from '../../pagination';
import type { Services } from '../../services';
import { earnings } from '../fundamentals/service';
import { snapshot } from '../market/service';
import type { OperationContext } from './operation';

/** Per request: the services, the request (its credential), the API version, the loaders. */
export interface GraphQLContext extends OperationContext {
  request: Request;
  /** The principal a row of the authorisation table admits, or throws (UNAUTHENTICATED / FORBIDDEN). */
  principal(access: RouteAccess): Promise<Principal>;
  /** The caller's principal when it sent a valid credential (cost limits, subscriptions). */
  caller: Principal | null;
  loaders: Loaders;
}

/** A request's batching: each symbol's snapshot and earnings asked once, whatever the number of signals. */
export interface Loaders {
  snapshot: DataLoader<string, unknown>;
  earnings: DataLoader<string, unknown>;
}

export function createLoaders(services: Services): Loaders {
  const each = (load: (symbol: string) => Promise<unknown>) =>
    new DataLoader<string, unknown>((symbols) => Promise.all(symbols.map((s) => load(s).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))))));
  return {
    snapshot: each((symbol) => snapshot(services.marketData, symbol)),
    earnings: each((symbol) => earnings(services.marketData, symbol, readPage({}))),
  };
}
