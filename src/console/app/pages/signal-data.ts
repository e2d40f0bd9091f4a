/**
 * @module console/app/pages/signal-data
 * What a signal's page reads, and from where: the signal itself from the
 * ranked list of its symbol and timeframe (`/api/breakouts?symbols=`), or from
 * its history once it has left the list (`/api/breakouts/history`, which also
 * holds its lifecycle), the bars to draw, and whether a language model is
 * configured (`/api/health` says so under `details.ai`; the explanation is
 * not asked for when none is, so the page makes no request it knows fails).
 */
import { api, query } from '../api';
import type { Bar, BreakoutsPage, Signal } from '../types';

/** DESIGN §4: `${symbol}-${patternType}-${detectedAt}` (an intraday detectedAt ends with `/PT4H` or `/PT1H`, domain/signal-id). */
const ID = /^(.+)-([a-z0-9_]+)-(\d{4}-\d\d-\d\dT.+)$/;

export function parseSignalId(id: string): { symbol: string; patternType: string; detectedAt: string } | undefined {
  const match = ID.exec(id);
  return match ? { symbol: match[1]!, patternType: match[2]!, detectedAt: match[3]! } : undefined;
}

export interface Transition {
  from: string | null;
  to: string;
  price: number;
  at: string;
}

/** A signal as its history lists it: the signal (geometry may be absent) and its state changes. */
export type HistorySignal = Omit<Signal, 'geometry'> & { geometry?: Signal['geometry']; stateHistory: Transition[] };

export interface SignalRead {
  signal: HistorySignal;
  /** Whether the signal is in the latest ranked list (live), or read from its history. */
  current: boolean;
  history: Transition[];
}

export async function readSignal(id: string, timeframe: string, signal?: AbortSignal): Promise<SignalRead> {
  const parts = parseSignalId(id);
  if (!parts) throw new Error(`${id} is not a signal id (SYMBOL-pattern-detectedAt)`);
  const [ranked, history] = await Promise.all([
    api<BreakoutsPage>(`/api/breakouts${query({ symbols: parts.symbol, timeframe, limit: 200 })}`, { signal }),
    api<{ items: HistorySignal[] }>(`/api/breakouts/history${query({ symbol: parts.symbol, pattern: parts.patternType, timeframe, limit: 200 })}`, { signal }),
  ]);
  const live = ranked.items.find((s) => s.id === id);
  const past = history.items.find((s) => s.id === id);
  const found = live ?? past;
  if (!found) throw Object.assign(new Error(`No signal ${id} on the ${timeframe} timeframe (neither in the latest scan nor in its history).`), { name: 'NotFound' });
  return { signal: { ...past, ...found, stateHistory: past?.stateHistory ?? [] } as HistorySignal, current: live !== undefined, history: past?.stateHistory ?? [] };
}

export async function readBars(symbol: string, timeframe: string, signal?: AbortSignal): Promise<Bar[]> {
  const answer = await api<{ bars: Bar[] }>(`/api/bars${query({ symbol, timeframe, range: '6mo' })}`, { signal });
  return answer.bars;
}

/** The model's state from the health report: `undefined` when it is configured, else why there is none. */
export async function modelMissing(signal?: AbortSignal): Promise<string | undefined> {
  const health = await api<{ details?: { ai?: { status: string; message?: string } } }>('/api/health', { signal });
  const ai = health.details?.ai;
  if (!ai) return undefined;
  return ai.status === 'ok' ? undefined : (ai.message ?? 'No language model is configured.');
}
