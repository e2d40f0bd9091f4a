/**
 * @module modules/watchlists/service
 * A user's watchlists: plain functions of (deps, principal, input). A user
 * sees and changes only their own (another user's watchlist answers 404, as
 * if it did not exist); symbols are checked against the provider; the tier's
 * caps (config) are held by the repository under a per-user lock.
 */
import type { Principal } from '../../auth';
import type { StoredWatchlist } from '../../db/repositories/watchlists';
import type { StoredSignal } from '../../db/repositories/scans';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { keysetPage, readPage } from '../../pagination';
import { timestampKey } from '../../db/repositories/keyset';
import type { Services } from '../../services';
import { checkedSymbols, notYours } from '../shared/account';
import type { AddSymbolsBody, CreateWatchlistBody, RenameWatchlistBody, WatchlistPage, WatchlistQuery, WatchlistSchema } from './model';

export type WatchlistDeps = Pick<Services, 'account' | 'scans' | 'marketData' | 'config'>;

function signalView(s: StoredSignal): NonNullable<WatchlistSchema['symbols'][number]['latestSignal']> {
  return {
    id: s.id,
    timeframe: s.timeframe,
    patternType: s.patternType,
    direction: s.direction,
    breakoutState: s.state,
    finalScore: s.finalScore,
    scoreBand: s.scoreBand,
    triggerPrice: s.triggerPrice,
    target1: s.target1,
    stopLoss: s.stopLoss,
    detectedAt: s.detectedAt.toISOString(),
  };
}

async function views(deps: WatchlistDeps, lists: StoredWatchlist[]): Promise<WatchlistSchema[]> {
  const latest = await deps.scans.latestSignalsOf([...new Set(lists.flatMap((l) => l.symbols))]);
  return lists.map((l) => ({
    id: l.id,
    name: l.name,
    symbols: l.symbols.map((symbol) => {
      const s = latest.get(symbol);
      return { symbol, latestSignal: s ? signalView(s) : null };
    }),
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
  }));
}

export async function listWatchlists(deps: WatchlistDeps, principal: Principal, query: WatchlistQuery): Promise<WatchlistPage> {
  const request = readPage(query);
  const { rows, total } = await deps.account.watchlists.page(principal.userId, request);
  const page = keysetPage(rows, request, (r) => timestampKey(r.createdAt, r.id), total);
  return { items: await views(deps, page.items), pagination: page.pagination };
}

export async function getWatchlist(deps: WatchlistDeps, principal: Principal, id: string): Promise<WatchlistSchema> {
  const found = await deps.account.watchlists.get(principal.userId, id);
  if (!found) throw notYours('watchlist', id);
  return (await views(deps, [found]))[0]!;
}

function symbolCapError(principal: Principal, cap: number, held: number, adding: number): AppError {
  return new AppError('forbidden', `A watchlist holds at most ${cap} symbols on the ${principal.tier} tier; it would hold ${held + adding}`);
}

export async function createWatchlist(deps: WatchlistDeps, principal: Principal, body: CreateWatchlistBody): Promise<WatchlistSchema> {
  const { caps } = deps.config.account;
  const symbols = await checkedSymbols(deps.marketData, body.symbols ?? [], 'symbols');
  const symbolCap = caps.watchlistSymbols[principal.tier];
  if (symbols.length > symbolCap) throw symbolCapError(principal, symbolCap, 0, symbols.length);
  const now = new Date();
  const cap = caps.watchlists[principal.tier];
  const created = await deps.account.watchlists.create({ id: newId('wl'), userId: principal.userId, name: body.name, createdAt: now, updatedAt: now }, symbols, cap);
  if (!created) throw new AppError('forbidden', `The ${principal.tier} tier allows ${cap} watchlists; delete one or upgrade`);
  return (await views(deps, [created]))[0]!;
}

export async function renameWatchlist(deps: WatchlistDeps, principal: Principal, id: string, body: RenameWatchlistBody): Promise<WatchlistSchema> {
  const renamed = await deps.account.watchlists.rename(principal.userId, id, body.name, new Date());
  if (!renamed) throw notYours('watchlist', id);
  return (await views(deps, [renamed]))[0]!;
}

export async function deleteWatchlist(deps: WatchlistDeps, principal: Principal, id: string): Promise<WatchlistSchema> {
  const { watchlists } = deps.account;
  const rules = await watchlists.rulesWatching(principal.userId, id);
  if (rules.length) throw new AppError('conflict', `Alert rules watch this watchlist (${rules.map((r) => `${r.id} '${r.name}'`).join(', ')}); change or delete them first`);
  const deleted = await watchlists.delete(principal.userId, id);
  if (!deleted) throw notYours('watchlist', id);
  return (await views(deps, [deleted]))[0]!;
}

export async function addSymbols(deps: WatchlistDeps, principal: Principal, id: string, body: AddSymbolsBody): Promise<WatchlistSchema> {
  const { watchlists } = deps.account;
  if (!(await watchlists.get(principal.userId, id))) throw notYours('watchlist', id);
  const symbols = await checkedSymbols(deps.marketData, body.symbols, 'symbols');
  const cap = deps.config.account.caps.watchlistSymbols[principal.tier];
  const added = await watchlists.addSymbols(principal.userId, id, symbols, cap, new Date());
  if (!added) throw notYours('watchlist', id);
  if ('capped' in added) throw symbolCapError(principal, cap, added.capped, symbols.length);
  return (await views(deps, [added]))[0]!;
}

export async function removeSymbol(deps: WatchlistDeps, principal: Principal, id: string, symbol: string): Promise<WatchlistSchema> {
  const result = await deps.account.watchlists.removeSymbol(principal.userId, id, symbol.toUpperCase(), new Date());
  if (!result) throw notYours('watchlist', id);
  if (!result.removed) throw new AppError('not_found', `Watchlist ${id} does not hold ${symbol.toUpperCase()}`);
  return (await views(deps, [result.watchlist]))[0]!;
}
