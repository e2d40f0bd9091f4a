/**
 * The explanation cache (written once per key, read back checked) and the
 * lookup of a persisted signal by id that /api/explain uses: from the last
 * run that listed it, or from its own row when no run holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Database } from '../../src/db/client';
import { ExplanationsRepository } from '../../src/db/repositories/explanations';
import { LedgerRepository } from '../../src/db/repositories/ledger';
import { StreamEventsRepository } from '../../src/db/repositories/stream-events';
import { ScansRepository } from '../../src/db/repositories/scans';
import { scanRuns, signals } from '../../src/db/schema';
import type { Signal } from '../../src/domain/signal';
import { openFreshDatabase, usingPostgres } from '../helpers/db';
import { makeSignal } from '../helpers/signal';

const SIGNAL: Signal = makeSignal();

const row = (runId: string, state = 'triggered') => ({
  id: SIGNAL.id,
  symbol: SIGNAL.symbol,
  timeframe: SIGNAL.timeframe,
  patternType: SIGNAL.patternType,
  patternFamily: SIGNAL.patternFamily,
  direction: SIGNAL.direction,
  detectedAt: new Date(SIGNAL.detectedAt),
  triggerPrice: SIGNAL.triggerPrice,
  target1: SIGNAL.target1,
  stopLoss: SIGNAL.stopLoss!,
  finalScore: SIGNAL.finalScore,
  confidence: SIGNAL.confidence,
  scoreBand: SIGNAL.scoreBand,
  trendRegime: SIGNAL.trendRegime,
  reasons: SIGNAL.reasons,
  geometry: SIGNAL.geometry,
  source: 'synthetic',
  firstRunId: runId,
  state,
  lastSeenRunId: runId,
  updatedAt: new Date(),
});

describe(`explanations and signal lookup (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let database: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ database, close } = await openFreshDatabase());
  });
  afterAll(() => close());

  it('stores an explanation once per key and reads it back checked; a second write under the key changes nothing', async () => {
    const repo = new ExplanationsRepository(database.db);
    const key = { signalId: SIGNAL.id, factsHash: 'f'.repeat(64), promptVersion: 'v1-test' };
    expect(await repo.find(key)).toBeUndefined();
    const base = { ...key, symbol: 'ACME', patternType: 'flat_base', provider: 'anthropic', model: 'claude-x', facts: {}, inputTokens: 1500, cachedInputTokens: 1200, outputTokens: 180, attempts: 1, createdAt: new Date('2026-11-20T18:00:00Z') };
    await repo.save({ ...base, bullets: ['One.', 'Two.', 'Three.'], grounding: [{ bullet: 0, citations: [] }] });
    await repo.save({ ...base, bullets: ['Overwritten?'], grounding: [] });
    const stored = await repo.find(key);
    expect(stored).toMatchObject({ bullets: ['One.', 'Two.', 'Three.'], grounding: [{ bullet: 0, citations: [] }], cachedInputTokens: 1200, model: 'claude-x' });
    expect(await repo.find({ ...key, promptVersion: 'v2-test' })).toBeUndefined();
  });

  it('finds a persisted signal as its last run saw it, with its state now and that run’s regime', async () => {
    const scans = new ScansRepository(database.db, new LedgerRepository(database.db), new StreamEventsRepository(database.db));
    const regime = { regime: 'risk_on' as const, multiplier: 1, shortMultiplier: 0.8, points: 3, distributionDays: 2, breadth: 0.64, reasons: ['SPY above its rising 50-day average'] };
    await database.db.insert(scanRuns).values({ id: 'run_a', timeframe: 'daily', asOf: new Date('2026-11-18T21:00:00Z'), startedAt: new Date(), finishedAt: new Date(), status: 'ok', symbolsScanned: 1, signalsFound: 1, durationMs: 5, source: 'synthetic', regime, findings: [SIGNAL], alerts: null });
    await database.db.insert(signals).values(row('run_a', 'confirmed'));
    const found = await scans.findSignal(SIGNAL.id);
    expect(found).toEqual({ signal: { ...SIGNAL, breakoutState: 'confirmed' }, regime, asOf: '2026-11-18T21:00:00.000Z' });
    expect(await scans.findSignal('ACME-vcp-2026-11-18T21:00:00.000Z')).toBeUndefined();
  });

  it('falls back to the signal’s own row when no run holds its finding', async () => {
    const scans = new ScansRepository(database.db, new LedgerRepository(database.db), new StreamEventsRepository(database.db));
    const other = { ...row('run_gone'), id: 'ACME-vcp-2026-11-10T21:00:00.000Z', patternType: 'vcp' };
    await database.db.insert(signals).values(other);
    const found = await scans.findSignal(other.id);
    expect(found!.regime).toBeNull();
    expect(found!.asOf).toBeNull();
    expect(found!.signal).toMatchObject({ id: other.id, patternType: 'vcp', breakoutState: 'triggered', triggerPrice: SIGNAL.triggerPrice, stopLoss: SIGNAL.stopLoss, scoreBand: SIGNAL.scoreBand, detectedAt: SIGNAL.detectedAt });
    expect(found!.signal.price).toBeUndefined(); // what only a run knows is absent, not invented
  });
});
