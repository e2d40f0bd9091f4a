/**
 * A STATE_DIR holding large ledgers, for the tests and benches that need the
 * costly reads to be costly (the stall guard): a finished replay of `signals`
 * signals in the replay chain — each with a state change and most with an
 * outcome, on the synthetic market's real sessions and symbols, shaped as
 * jobs/replay writes them — and `liveSignals` signals in the live ledger.
 * Written through the repositories (the same chain, hashes and checkpoints a
 * server writes), straight into the embedded database a server then opens.
 */
import { join } from 'node:path';
import { openDatabase, type Db } from '../../src/db/client';
import { LedgerRepository, REPLAY_CHAIN, type LedgerEntry } from '../../src/db/repositories/ledger';
import { entryText } from '../../src/db/repositories/ledger-text';
import { ReplayRunsRepository } from '../../src/db/repositories/replays';
import type { ReplayParams } from '../../src/domain/replay';
import { createSyntheticProvider } from '../../src/providers/synthetic';

/** The synthetic market every seeded record refers to (its sessions and symbols). */
export const SEED_NOW = Date.UTC(2026, 10, 20, 22);
const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'META', 'JPM', 'XOM', 'KO', 'CAT', 'HD', 'UNH', 'PG', 'V', 'MA', 'COST', 'PEP', 'ORCL', 'CSCO', 'ADBE'];
const PATTERNS = [
  ['flat_base', 'base'],
  ['vcp', 'base'],
  ['bull_flag', 'continuation'],
  ['range_breakout', 'range'],
  ['new_high_52w', 'momentum'],
] as const;
const BANDS = ['ignore', 'watchlist', 'strong', 'elite'] as const;

/** A deterministic number in [0, 1) per integer (no shared generator: every record stands alone). */
const unit = (i: number) => {
  const x = Math.sin(i * 12.9898) * 43758.5453;
  return x - Math.floor(x);
};

/** The sessions the seeded records fall on: the synthetic market's last 504 daily bars of SPY (about two years). */
export async function seedSessions(): Promise<{ ts: number; close: number }[]> {
  const provider = createSyntheticProvider({ seed: 42, now: () => SEED_NOW });
  const spy = await provider.bars({ symbol: 'SPY', timeframe: 'daily' });
  return Array.from(spy.ts.slice(-504), (ts, j) => ({ ts, close: spy.close[spy.ts.length - 504 + j]! }));
}

/** Signals `from` … `from + count − 1` as records (replay records of `runId`, or live ones), in append order. */
export function seedRecords(from: number, count: number, sessions: { ts: number; close: number }[], runId?: string): LedgerEntry[] {
  return Array.from({ length: count }, (_, j) => recordsOf(from + j, sessions, runId)).flat();
}

/**
 * The signal, event and outcome records of signal `i`: every tenth stays open
 * (no outcome), every seventh expires never entered, every eleventh is a
 * short, every thirteenth has no confidence, every third has no alert verdict
 * (the others were let through or blocked); the rest win (R 2) or lose (R −1).
 */
function recordsOf(i: number, sessions: { ts: number; close: number }[], runId: string | undefined): LedgerEntry[] {
  // Distinct (symbol, pattern, session) for 100 × (sessions − 30) consecutive i: a signal id is written once.
  const symbol = SYMBOLS[i % SYMBOLS.length]!;
  const [patternType, patternFamily] = PATTERNS[Math.floor(i / SYMBOLS.length) % PATTERNS.length]!;
  const k = Math.floor(i / (SYMBOLS.length * PATTERNS.length)) % (sessions.length - 30);
  const detected = sessions[k]!;
  const detectedAt = new Date(detected.ts).toISOString();
  const id = `${symbol}-${patternType}-${detectedAt}`;
  const price = detected.close;
  const short = i % 11 === 5;
  const finalScore = Math.round(40 + unit(i + 1) * 55);
  const scoreBand = BANDS[finalScore >= 85 ? 3 : finalScore >= 70 ? 2 : finalScore >= 55 ? 1 : 0];
  const marks = runId === undefined ? {} : { mode: 'replay', replay: { id: runId, source: 'synthetic', timeframe: 'daily', universe: 'symbols', benchmark: 'SPY' } };
  const signal: LedgerEntry = {
    kind: 'signal',
    signalId: id,
    patternType,
    scoreBand,
    finalScore,
    detectedAt: new Date(detectedAt),
    replayId: runId,
    data: {
      id, symbol, timeframe: 'daily', patternFamily, patternType, direction: short ? 'short' : 'long', detectedAt, surfacedAt: detectedAt, state: 'triggered',
      triggerPrice: price, target1: Math.round(price * (short ? 90 : 110)) / 100, stopLoss: Math.round(price * (short ? 105 : 95)) / 100, finalScore, scoreBand,
      ...(i % 13 === 0 ? {} : { confidence: Math.round(unit(i + 2) * 100) / 100 }), reasons: [`base depth ${(8 + unit(i + 3) * 20).toFixed(1)}% over 7 weeks`, 'pivot at the base high'],
      trendRegime: 'uptrend', regime: unit(i + 4) < 0.7 ? 'risk_on' : 'neutral', priceAtDetection: price, source: 'synthetic', runId: runId ?? 'run_seed', ...marks,
      ...(i % 3 === 2 ? {} : { alert: i % 3 === 0 ? { verdict: 'candidate', codes: [] } : { verdict: 'blocked', codes: ['extended', 'cooldown'] } }),
    },
  };
  const exit = sessions[k + 5 + Math.floor(unit(i + 5) * 20)]!;
  const event: LedgerEntry = { kind: 'event', signalId: id, replayId: runId, data: { from: 'triggered', to: 'confirmed', price, at: new Date(sessions[k + 1]!.ts).toISOString(), runId: runId ?? 'run_seed', ...marks } };
  if (i % 10 === 9) return [signal, event]; // still open
  const expired = i % 7 === 3;
  const win = unit(i + 6) < 0.45;
  const outcome: LedgerEntry = {
    kind: 'outcome',
    signalId: id,
    patternType,
    scoreBand,
    finalScore,
    detectedAt: new Date(detectedAt),
    replayId: runId,
    data: expired
      ? { outcome: 'scratch', entered: false, entry: price, exitAt: new Date(exit.ts).toISOString(), exitPrice: price, rMultiple: 0, daysHeld: 0, barsHeld: 0, note: 'expired before crossing its trigger: never entered', ...marks }
      : {
          outcome: win ? 'win' : 'loss', entered: true, entry: price, entryAt: detectedAt, exitAt: new Date(exit.ts).toISOString(), exitPrice: win ? price * (short ? 0.9 : 1.1) : price * (short ? 1.05 : 0.95),
          rMultiple: win ? 2 : -1, daysHeld: Math.round((exit.ts - detected.ts) / 86_400_000), barsHeld: 5, mfeR: 2, maeR: 0.5, mfePct: 10, maePct: 2.5, ...marks,
        },
  };
  return [signal, event, outcome];
}

/**
 * Writes the ledgers into `stateDir`'s embedded database (created if need be).
 * Resolves to the replay's id and the records written to each chain.
 */
export async function seedLedgers(stateDir: string, options: { signals: number; liveSignals: number }): Promise<{ replayId: string; replayRecords: number; liveRecords: number }> {
  const database = await openDatabase({ dataDir: join(stateDir, 'pgdata') });
  try {
    return await writeLedgers(database.db, options);
  } finally {
    await database.close();
  }
}

/** `seedLedgers` into an open database (a test context's: `ctx.services.database.db`). */
export async function writeLedgers(db: Db, options: { signals: number; liveSignals: number }): Promise<{ replayId: string; replayRecords: number; liveRecords: number }> {
  const sessions = await seedSessions();
  const live = new LedgerRepository(db);
  const replayLedger = new LedgerRepository(db, REPLAY_CHAIN);
  const replays = new ReplayRunsRepository(db, replayLedger);
  const params: ReplayParams = { timeframe: 'daily', from: new Date(sessions[0]!.ts).toISOString().slice(0, 10), to: new Date(sessions.at(-1)!.ts).toISOString().slice(0, 10), universe: { kind: 'symbols', symbols: SYMBOLS }, benchmark: 'SPY' };
  const replayId = 'rpl_seeded0000000000000';
  await replays.start(
    { id: replayId, key: 'seeded', params, source: 'synthetic', origin: 'test', universe: { kind: 'symbols', membership: 'a fixed list', symbols: SYMBOLS.length, membersWithoutData: 0, minCoverage: 1, survivorshipBias: true, survivorshipNote: 'seeded' }, sessionsTotal: sessions.length },
    { kind: 'replay', signalId: replayId, replayId, data: { mode: 'replay', params } },
  );
  let replayRecords = 1;
  const CHUNK = 1000;
  for (let i = 0; i < options.signals; i += CHUNK) {
    const entries = seedRecords(i, Math.min(CHUNK, options.signals - i), sessions, replayId);
    replayRecords += await replays.commitSlice(replayId, entries.map((e) => entryText(e, 'replay')), { records: replayRecords, entriesSinceBooks: 0, signals: Math.min(CHUNK, options.signals - i) });
    await replays.progress(replayId, Math.min(sessions.length, Math.ceil(((i + CHUNK) / options.signals) * sessions.length)), replayRecords);
    await replayLedger.checkpoint();
  }
  await replays.finish(replayId, 'done');
  let liveRecords = 0;
  for (let i = 0; i < options.liveSignals; i += CHUNK) {
    const entries = seedRecords(i, Math.min(CHUNK, options.liveSignals - i), sessions);
    liveRecords += (await live.append(entries)).length;
    await live.checkpoint();
  }
  return { replayId, replayRecords, liveRecords };
}
