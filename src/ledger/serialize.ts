/**
 * @module ledger/serialize
 * A ledger slice as served: each signal record with its current state, its
 * state changes and its outcome, and the same slice as CSV (RFC 4180: fields
 * quoted when they hold a comma, quote or line break; quotes doubled; CRLF line
 * ends). The accounts feature's exports reuse both.
 */
import { Type } from '@sinclair/typebox';
import type { LedgerRecordRow } from '../db/schema';
import { storedAs } from '../domain/check';
import { BREAKOUT_STATES, literalUnion, type BreakoutState } from '../domain/signal';

export interface LedgerEntryView {
  seq: number;
  hash: string;
  prevHash: string;
  recordedAt: string;
  signal: Record<string, unknown>;
  state: string;
  events: { seq: number; from: BreakoutState | null; to: BreakoutState; price: number; at: string; hash: string }[];
  outcome: Record<string, unknown> & { outcome: string };
  outcomeRecord: { seq: number; hash: string } | null;
}

const State = literalUnion(BREAKOUT_STATES);
const bodyOf = storedAs(Type.Object({ data: Type.Record(Type.String(), Type.Unknown()) }));
const eventOf = storedAs(Type.Object({ from: Type.Union([State, Type.Null()]), to: State, price: Type.Number(), at: Type.String() }));
const outcomeOf = storedAs(Type.Intersect([Type.Record(Type.String(), Type.Unknown()), Type.Object({ outcome: Type.String() })]));

const dataOf = (row: LedgerRecordRow) => bodyOf(JSON.parse(row.body), `ledger record ${row.seq}`).data;

/** Joins signal records with their follow-ups (events and outcome), preserving chain order. */
export function ledgerEntries(signalRows: LedgerRecordRow[], followUps: LedgerRecordRow[]): LedgerEntryView[] {
  const bySignal = new Map<string, LedgerRecordRow[]>();
  for (const row of followUps) bySignal.set(row.signalId, [...(bySignal.get(row.signalId) ?? []), row]);
  return signalRows.map((row) => {
    const signal = dataOf(row);
    const rest = bySignal.get(row.signalId) ?? [];
    const events = rest
      .filter((r) => r.kind === 'event')
      .map((r) => {
        const d = eventOf(dataOf(r), `ledger event ${r.seq}`);
        return { seq: r.seq, from: d.from, to: d.to, price: d.price, at: d.at, hash: r.hash };
      });
    const outcomeRow = rest.find((r) => r.kind === 'outcome');
    return {
      seq: row.seq,
      hash: row.hash,
      prevHash: row.prevHash,
      recordedAt: row.recordedAt.toISOString(),
      signal,
      state: events.at(-1)?.to ?? String(signal.state ?? 'forming'),
      events,
      outcome: outcomeRow ? outcomeOf(dataOf(outcomeRow), `ledger outcome ${outcomeRow.seq}`) : { outcome: 'open' },
      outcomeRecord: outcomeRow ? { seq: outcomeRow.seq, hash: outcomeRow.hash } : null,
    };
  });
}

export const LEDGER_CSV_COLUMNS = [
  'seq', 'signal_id', 'symbol', 'timeframe', 'pattern_type', 'direction', 'detected_at', 'trigger_price', 'target1', 'stop_loss',
  'final_score', 'score_band', 'confidence', 'regime', 'price_at_detection', 'state', 'outcome', 'r_multiple', 'exit_price', 'exit_at',
  'recorded_at', 'hash',
] as const;

function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record of any values (null and undefined are empty fields), with its CRLF. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(field).join(',')}\r\n`;
}

export function csvHeader(columns: readonly string[] = LEDGER_CSV_COLUMNS): string {
  return csvLine(columns);
}

/** What a CSV row shows of an entry (a trade row of ledger/trades has it too). */
export type CsvEntry = Pick<LedgerEntryView, 'seq' | 'signal' | 'state' | 'outcome' | 'recordedAt' | 'hash'>;

export function csvRows(entries: readonly CsvEntry[]): string {
  let out = '';
  for (const e of entries) {
    const s = e.signal;
    const o = e.outcome;
    out += csvLine([
      e.seq, s.id, s.symbol, s.timeframe, s.patternType, s.direction, s.detectedAt, s.triggerPrice, s.target1, s.stopLoss,
      s.finalScore, s.scoreBand, s.confidence, s.regime, s.priceAtDetection, e.state, o.outcome, o.rMultiple, o.exitPrice, o.exitAt,
      e.recordedAt, e.hash,
    ]);
  }
  return out;
}
