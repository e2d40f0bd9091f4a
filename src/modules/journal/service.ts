/**
 * @module modules/journal/service
 * A user's trade journal: plain functions of (deps, principal, input), each
 * scoped to the principal (another user's entry answers 404). A linked
 * signal must exist and be of the entry's symbol; figures come from
 * ledger/journal (the ledger's own definitions and kernels).
 */
import type { Principal } from '../../auth';
import type { JournalFilter, StoredJournalEntry } from '../../db/repositories/journal';
import { timestampKey } from '../../db/repositories/keyset';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { journalFigures, journalSummary, type JournalTrade } from '../../ledger/journal';
import { keysetPage, readPage } from '../../pagination';
import type { Services } from '../../services';
import { checkedSymbols, notYours } from '../shared/account';
import type { CreateEntryBody, EntryPage, EntryQuery, EntrySchema, SummaryQuery, SummarySchema, UpdateEntryBody } from './model';

export type JournalDeps = Pick<Services, 'account' | 'scans' | 'marketData'>;

/** Entries with their figures (one read of the linked signals' stops). */
async function trades(deps: JournalDeps, entries: StoredJournalEntry[]): Promise<JournalTrade[]> {
  const stops = await deps.scans.stopsOf([...new Set(entries.flatMap((e) => (e.signalId ? [e.signalId] : [])))]);
  return entries.map((e) => ({ ...e, ...journalFigures(e, e.signalId ? (stops.get(e.signalId) ?? null) : null) }));
}

function entryView(t: JournalTrade): EntrySchema {
  return {
    id: t.id,
    symbol: t.symbol,
    side: t.side,
    entryPrice: t.entryPrice,
    entryAt: t.entryAt.toISOString(),
    exitPrice: t.exitPrice,
    exitAt: t.exitAt?.toISOString() ?? null,
    size: t.size,
    fees: t.fees,
    notes: t.notes,
    tags: t.tags,
    signalId: t.signalId,
    status: t.status,
    pnl: t.pnl,
    returnPct: t.returnPct,
    stopLoss: t.stopLoss,
    initialRisk: t.initialRisk,
    rMultiple: t.rMultiple,
    holdingDays: t.holdingDays,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

const viewOf = async (deps: JournalDeps, entry: StoredJournalEntry) => entryView((await trades(deps, [entry]))[0]!);

/**
 * The whole entry as it will be stored, checked: exit both-or-neither and not before entry, a linked signal of the same symbol
 * (linked by the id it is stored under, whichever form of its id was given: domain/signal-id).
 */
async function checkedEntry<E extends { symbol: string; entryAt: Date; exitPrice: number | null; exitAt: Date | null; signalId: string | null }>(deps: JournalDeps, entry: E): Promise<E> {
  if ((entry.exitPrice === null) !== (entry.exitAt === null)) throw new AppError('invalid_body', "Body fields 'exitPrice' and 'exitAt' go together: give both to close the position, or neither");
  if (entry.exitAt !== null && entry.exitAt < entry.entryAt) throw new AppError('invalid_body', "Body field 'exitAt' is before 'entryAt'");
  if (entry.signalId !== null) {
    const signal = await deps.scans.signalById(entry.signalId);
    if (!signal) throw new AppError('invalid_body', `Body field 'signalId': no signal ${entry.signalId} was ever surfaced`);
    if (signal.symbol !== entry.symbol) throw new AppError('invalid_body', `Body field 'signalId': signal ${entry.signalId} is of ${signal.symbol}, not ${entry.symbol}`);
    return { ...entry, signalId: signal.id };
  }
  return entry;
}

const filterOf = (query: { symbol?: string; tag?: string }): JournalFilter => ({ symbol: query.symbol, tag: query.tag });

export async function listEntries(deps: JournalDeps, principal: Principal, query: EntryQuery): Promise<EntryPage> {
  const request = readPage(query);
  const { rows, total } = await deps.account.journal.page(principal.userId, filterOf(query), request);
  const page = keysetPage(rows, request, (r) => timestampKey(r.entryAt, r.id), total);
  return { items: (await trades(deps, page.items)).map(entryView), pagination: page.pagination };
}

export async function getEntry(deps: JournalDeps, principal: Principal, id: string): Promise<EntrySchema> {
  const entry = await deps.account.journal.get(principal.userId, id);
  if (!entry) throw notYours('journal entry', id);
  return viewOf(deps, entry);
}

export async function createEntry(deps: JournalDeps, principal: Principal, body: CreateEntryBody): Promise<EntrySchema> {
  const [symbol] = await checkedSymbols(deps.marketData, [body.symbol], 'symbol');
  const now = new Date();
  const entry = await checkedEntry(deps, {
    id: newId('jrn'),
    userId: principal.userId,
    symbol: symbol!,
    side: body.side,
    entryPrice: body.entryPrice,
    entryAt: new Date(body.entryAt),
    exitPrice: body.exitPrice ?? null,
    exitAt: body.exitAt ? new Date(body.exitAt) : null,
    size: body.size,
    fees: body.fees ?? 0,
    notes: body.notes ?? '',
    tags: body.tags ?? [],
    signalId: body.signalId ?? null,
    createdAt: now,
    updatedAt: now,
  });
  return viewOf(deps, await deps.account.journal.create(entry));
}

export async function updateEntry(deps: JournalDeps, principal: Principal, id: string, body: UpdateEntryBody): Promise<EntrySchema> {
  const { journal } = deps.account;
  const entry = await journal.get(principal.userId, id);
  if (!entry) throw notYours('journal entry', id);
  const symbol = body.symbol === undefined ? entry.symbol : (await checkedSymbols(deps.marketData, [body.symbol], 'symbol'))[0]!;
  const next = await checkedEntry(deps, {
    symbol,
    side: body.side ?? entry.side,
    entryPrice: body.entryPrice ?? entry.entryPrice,
    entryAt: body.entryAt ? new Date(body.entryAt) : entry.entryAt,
    exitPrice: body.exitPrice === undefined ? entry.exitPrice : body.exitPrice,
    exitAt: body.exitAt === undefined ? entry.exitAt : body.exitAt === null ? null : new Date(body.exitAt),
    size: body.size ?? entry.size,
    fees: body.fees ?? entry.fees,
    notes: body.notes ?? entry.notes,
    tags: body.tags ?? entry.tags,
    signalId: body.signalId === undefined ? entry.signalId : body.signalId,
    updatedAt: new Date(),
  });
  const updated = await journal.update(principal.userId, id, next);
  if (!updated) throw notYours('journal entry', id);
  return viewOf(deps, updated);
}

export async function deleteEntry(deps: JournalDeps, principal: Principal, id: string): Promise<EntrySchema> {
  const deleted = await deps.account.journal.delete(principal.userId, id);
  if (!deleted) throw notYours('journal entry', id);
  return viewOf(deps, deleted);
}

export async function summarize(deps: JournalDeps, principal: Principal, query: SummaryQuery): Promise<SummarySchema> {
  return journalSummary(await trades(deps, await deps.account.journal.all(principal.userId, filterOf(query))));
}
