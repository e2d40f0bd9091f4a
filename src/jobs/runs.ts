/**
 * @module jobs/runs
 * The persisted universe scans ("runs") of each timeframe: the one place that
 * makes them, and the latest run as readers see it (held briefly so a burst
 * of requests reads the database once), with the alert policy's evaluation
 * made once, when the run is persisted, and stored with it. What a reader
 * sees of them — narrowed to symbols, an on-demand scan beside them, a
 * point-in-time replay — is the signals read model's (jobs/signal-reads).
 *
 * `persist` runs a scan, evaluates the alert policy, stores the run with its
 * signals, verdicts and ledger records in one transaction, announces new
 * signals and state changes on the bus, fires users' alert rules
 * (jobs/alert-rules; their webhooks are sent in the background), tracks signals that left the live
 * window, resolves outcomes and checkpoints the ledger. One run per timeframe
 * at a time: a second caller shares the run in progress, and across the
 * instances sharing a PostgreSQL database one instance scans under the
 * timeframe's lease (db/lease) while the others wait and read its
 * run; the run is saved only over the head it was scanned after (a fence in
 * the transaction), so a scan that lost its lease mid-way writes nothing.
 */
import { Lease } from '../db/lease';
import { LOCK_KEYS, type ClusterLocks } from '../db/cluster-locks';
import type { LedgerRepository } from '../db/repositories/ledger';
import type { PersistedRun, RunChanges, RunFence, RunSummary, ScansRepository, Transition } from '../db/repositories/scans';
import type { AlertVerdicts, OpenSetup, ScanResult, Signal, Timeframe } from '../domain/signal';
import { asStoredJsonb } from '../db/repositories/scan-rows';
import { runsOf } from '../runs-of';
import { newId } from '../ids';
import type { Logger } from '../log';
import type { Metrics } from '../metrics';
import type { MarketData } from '../market-data';
import { batches, type KernelPool } from '../pool';
import type { BarStore } from '../store';
import type { BusEventInput, EventBus } from '../stream/bus';
import type { AlertRuleDispatcher } from './alert-rules';
import { alertsAt, evaluationOf, verdictsOf, type AlertEvaluation } from './alerts';
import { resolveOutcomes } from './outcomes';
import type { SignalView } from '../kernels/signal-view';
import { runScan } from './scan';
import { yieldToEventLoop } from '../db/client';

export interface RunsDeps {
  marketData: MarketData;
  barStore: BarStore;
  pool: KernelPool;
  scans: ScansRepository;
  ledger: LedgerRepository;
  bus: EventBus;
  log: Logger;
  /** Users' alert rules, evaluated against every persisted run. */
  alertRules?: Pick<AlertRuleDispatcher, 'evaluate'>;
  /** Where each persisted scan's duration is recorded (src/metrics). */
  metrics?: Pick<Metrics, 'scanSeconds'>;
  /** The cluster's locks (the database's): one instance scans a timeframe at a time. */
  locks: ClusterLocks;
}

/** The latest persisted run of a timeframe as readers see it. */
export interface LatestRun {
  run: PersistedRun;
  view: SignalView;
  /** The newest runs of the timeframe (this one first). */
  history: RunSummary[];
}

/** How long a read of the latest run is reused; a run persisted by this process replaces it at once, one by another instance shows within this. */
const LATEST_RUN_TTL_MS = 1000;
/** How long a universe scan is reused for /api/universe/scan. */
const UNIVERSE_REUSE_MS = 60_000;
const HISTORY_RUNS = 10;
/** Signals of a run just saved copied as their stored JSON between two turns of the event loop. */
const COPY_SLICE = 50;

/** What a persisted run announces on the stream: each new signal, then each state change of a known one (at the run's bar). */
function runEvents({ newSignals, changes }: RunChanges, asOf: string): BusEventInput[] {
  return [
    ...newSignals.map((signal): BusEventInput => ({ channel: 'breakouts.new', payload: { signal } })),
    ...changes.map(({ signal, from, to }): BusEventInput => ({ channel: 'breakouts.state_change', payload: { signalId: signal.id, symbol: signal.symbol, from, to, price: signal.price, at: asOf } })),
  ];
}

/** The stream events of tracked signals' transitions (each at its own bar). */
const transitionEvents = (changes: Transition[]): BusEventInput[] =>
  changes.map((c) => ({ channel: 'breakouts.state_change', payload: { signalId: c.signalId, symbol: c.symbol, from: c.from, to: c.to, price: c.price, at: c.at.toISOString() } }));

export class SignalRuns {
  private readonly latestRuns = new Map<Timeframe, { value: LatestRun; readAt: number }>();
  private readonly persisting = new Map<Timeframe, Promise<string>>();
  private readonly universeScans = new Map<string, { at: number; result: Promise<ScanResult> }>();
  private readonly leases = new Map<Timeframe, Lease>();

  constructor(private readonly deps: RunsDeps) {}

  /**
   * The latest persisted run of a timeframe, or undefined when none exists. The run's findings (~460 KB of JSON for
   * a universe's daily run, decoded in the server's thread on PGlite) are read only when the newest run is not the
   * one held: a held run is checked against the runs' summaries alone.
   */
  async latest(timeframe: Timeframe): Promise<LatestRun | undefined> {
    const held = this.latestRuns.get(timeframe);
    if (held && Date.now() - held.readAt < LATEST_RUN_TTL_MS) return held.value;
    const history = await this.deps.scans.runHistory(timeframe, HISTORY_RUNS);
    // The newest successful run, as latestRun orders them (by finishedAt): when it is the held one, nothing more to read.
    if (held && history.find((r) => r.status === 'ok')?.id === held.value.run.id) return this.hold(timeframe, { ...held.value, history });
    const run = await this.deps.scans.latestRun(timeframe);
    if (!run) return undefined;
    return this.hold(timeframe, held?.value.run.id === run.id ? { ...held.value, history } : await this.latestOf(run, history));
  }

  private hold(timeframe: Timeframe, value: LatestRun): LatestRun {
    this.latestRuns.set(timeframe, { value, readAt: Date.now() });
    return value;
  }

  /**
   * The run this process just saved, held as a reader would read it back (its findings, regime and verdicts as their
   * jsonb columns give them: db/repositories/scan-rows `asStoredJsonb`, 50 signals a turn of the loop), with its
   * summary as stored: a first start's warm-up read back the daily run it had just saved, 460 KB of findings decoded
   * and checked in one ~114 ms stretch of the server's thread (bench/first-minute, issue 27).
   */
  private async holdSaved(runId: string, result: ScanResult, verdicts: AlertVerdicts): Promise<void> {
    const history = await this.deps.scans.runHistory(result.timeframe, HISTORY_RUNS);
    const summary = history.find((r) => r.id === runId);
    if (!summary || history.find((r) => r.status === 'ok') !== summary) return; // another run is newer: the next read reads it
    const signals: Signal[] = [];
    for (const part of runsOf(result.signals, COPY_SLICE)) {
      await yieldToEventLoop();
      signals.push(...asStoredJsonb(part));
    }
    const run: PersistedRun = { ...summary, signals, regime: asStoredJsonb(result.regime), alerts: asStoredJsonb(verdicts) };
    this.hold(result.timeframe, await this.latestOf(run, history));
  }

  /** The latest persisted run, scanning and persisting one first when none exists yet. */
  async current(timeframe: Timeframe): Promise<LatestRun> {
    const latest = await this.latest(timeframe);
    if (latest) return latest;
    await this.persist(timeframe, { after: null }); // any run will do, another instance's included
    const made = await this.latest(timeframe);
    if (!made) throw new Error(`no ${timeframe} scan run after persisting one`);
    return made;
  }

  /** The daily universe scan against `benchmark`, reused for a minute (the universe-scan endpoint). */
  universe(benchmark: string): Promise<ScanResult> {
    const hit = this.universeScans.get(benchmark);
    if (hit && Date.now() - hit.at < UNIVERSE_REUSE_MS) return hit.result;
    const result = runScan(this.deps, { timeframe: 'daily', benchmark });
    this.universeScans.set(benchmark, { at: Date.now(), result });
    result.catch(() => this.universeScans.delete(benchmark));
    return result;
  }

  /**
   * Scans the universe and persists the run (see the module comment); resolves
   * to the run id — another instance's, when it persisted one while this one
   * waited for the timeframe's lease. `after` is the newest run the caller
   * knew of (null: none; by default the newest now): any run newer than it,
   * whoever made it, answers. `signal` (the scheduler's leadership) stops it
   * before it saves. `stopping` (a shutdown) lets the scan in progress save
   * its run but skips the steps after the save (alert rules, tracking,
   * outcomes, the checkpoint): each is done again after the next run, and a
   * stopping process has seconds, not the minutes they can take on a busy
   * machine (35 s for 140 alert dispatches at load 30).
   */
  persist(timeframe: Timeframe, options: { signal?: AbortSignal; stopping?: AbortSignal; after?: string | null } = {}): Promise<string> {
    const existing = this.persisting.get(timeframe);
    if (existing) return existing;
    const job = this.persistOnce(timeframe, options.after, options.signal, options.stopping).finally(() => this.persisting.delete(timeframe));
    this.persisting.set(timeframe, job);
    return job;
  }

  /** Under the timeframe's lease: a run persisted by another instance since `head` is read, else one is made. */
  private async persistOnce(timeframe: Timeframe, after: string | null | undefined, signal?: AbortSignal, stopping?: AbortSignal): Promise<string> {
    const headOf = async () => (await this.deps.scans.runHistory(timeframe, 1))[0]?.id ?? null;
    const head = after === undefined ? await headOf() : after;
    const lease = this.lease(timeframe);
    await lease.acquireWaiting({ signal });
    try {
      const now = await headOf();
      if (now !== null && now !== head) {
        this.latestRuns.delete(timeframe);
        return now;
      }
      return await this.scanAndPersist(timeframe, { head: now, lockKey: LOCK_KEYS.scanRunSave[timeframe] }, AbortSignal.any([lease.signal, ...(signal ? [signal] : [])]), stopping);
    } finally {
      await lease.release();
    }
  }

  private lease(timeframe: Timeframe): Lease {
    let lease = this.leases.get(timeframe);
    if (!lease) {
      lease = new Lease({ name: `${timeframe} scan run`, key: LOCK_KEYS.scanRun[timeframe], locks: this.deps.locks, log: this.deps.log });
      this.leases.set(timeframe, lease);
    }
    return lease;
  }

  private async scanAndPersist(timeframe: Timeframe, fence: RunFence, signal: AbortSignal, stopping?: AbortSignal): Promise<string> {
    const { deps } = this;
    const started = performance.now();
    // Intraday signals stored before ids carried the timeframe go on under their stored ids (domain/signal-id).
    // A turn of the event loop between the scan's end (its signals ranked), the stored ids and the alert policy: at once ~55 ms on a first start (issue 27).
    const scanned = await runScan(deps, { timeframe });
    await yieldToEventLoop();
    const result = await deps.scans.withStoredIds(scanned);
    await yieldToEventLoop();
    const runId = newId('run');
    const alerts = await this.alerts(result);
    signal.throwIfAborted();
    // The run and its stream events commit together: subscribers of every instance get them from the log even when Redis is away.
    const verdicts = verdictsOf(alerts);
    const saved = await deps.scans.saveRun(runId, result, deps.marketData.provider.name, verdicts, (written) => runEvents(written, result.asOf), fence);
    this.latestRuns.delete(timeframe);
    if (!saved) {
      deps.log.warn('scan run not saved: another instance saved one first', { timeframe });
      const [head] = await deps.scans.runHistory(timeframe, 1);
      return head!.id;
    }
    deps.bus.announce(saved.events);
    // The run is saved: a failure to hold it only means the next reader reads it back.
    await this.holdSaved(runId, result, verdicts).catch((error: unknown) => deps.log.warn('scan run saved but not held; the next read reads it back', { runId, error: String(error) }));
    // Each step after the save in a turn of its own: together they held the main thread ~80 ms at once on a first start (issue 27).
    await yieldToEventLoop();
    // Stopping: the run is saved and announced; what follows is done again after the next run.
    const left = (step: string) => {
      if (stopping?.aborted) deps.log.info('scan run saved; its later steps are left to the next run (stopping)', { timeframe, runId, step });
      return stopping?.aborted === true;
    };
    // The run is persisted: users' alert rules fire now; a failure is logged and the rules see these signals again next run.
    if (left('alert rules')) return runId;
    await deps.alertRules?.evaluate(runId, result).catch((error) => deps.log.error('alert rules failed', { runId, error: String(error) }));
    if (left('tracking')) return runId;
    await this.trackOpenSignals(runId, result);
    await yieldToEventLoop();
    // The run is persisted: a failure to resolve outcomes is logged and retried after the next run.
    if (left('outcomes')) return runId;
    await resolveOutcomes(deps).catch((error) => deps.log.error('outcome resolution failed', { error: String(error) }));
    await yieldToEventLoop();
    if (left('checkpoint')) return runId;
    await deps.ledger.checkpoint(); // a published head after every run
    deps.metrics?.scanSeconds(timeframe, (performance.now() - started) / 1000);
    return runId;
  }

  /**
   * Signals persisted earlier that this run no longer lists (their setup left the
   * live window) still move: their lifecycle is replayed in the pool up to the
   * run's bar, and every transition is recorded and announced.
   */
  private async trackOpenSignals(runId: string, result: ScanResult): Promise<void> {
    const { deps } = this;
    const open = await deps.scans.openSignals(result.timeframe, result.signals.map((s) => s.id));
    if (open.length === 0) return;
    const setups: OpenSetup[] = open.map((row) => ({
      id: row.id,
      symbol: row.symbol,
      direction: row.direction,
      trigger: row.triggerPrice,
      target1: row.target1,
      stopLoss: row.stopLoss ?? Number.NaN,
      patternEndTs: Date.parse(row.geometry.end),
      depthPct: row.geometry.depthPct,
    }));
    const asOfTs = Date.parse(result.asOf);
    const handle = deps.barStore.handle();
    const tracked = (await Promise.all(batches(setups, deps.pool.threads * 4).map((part) => deps.pool.run('track', { handle, timeframe: result.timeframe, asOfTs, setups: part })))).flat();
    const rows = new Map(open.map((r) => [r.id, r]));
    const changes: Transition[] = [];
    for (const t of tracked) {
      const row = rows.get(t.id);
      if (!row) continue;
      // The replay starts at `forming`; only what happens after the stored state counts.
      const from = t.transitions.findIndex((x) => x.from === row.state);
      if (t.state === row.state || from < 0) continue;
      for (const x of t.transitions.slice(from)) changes.push({ signalId: t.id, symbol: row.symbol, from: x.from, to: x.to, price: x.price, at: new Date(x.ts) });
    }
    deps.bus.announce(await deps.scans.recordTransitions(runId, changes, transitionEvents));
  }

  private alerts(scan: Pick<ScanResult, 'timeframe' | 'signals' | 'regime' | 'asOf'>): Promise<AlertEvaluation> {
    return alertsAt({ scans: this.deps.scans, provider: this.deps.marketData.provider }, scan);
  }

  private async latestOf(run: PersistedRun, history: RunSummary[]): Promise<LatestRun> {
    const { timeframe } = run;
    const view = { timeframe, asOf: run.asOf.toISOString(), generatedAt: run.finishedAt.toISOString(), regime: run.regime, signals: run.signals };
    // Runs persisted before the verdicts were stored with them are evaluated once, here, by the same policy.
    const alerts = run.alerts
      ? evaluationOf(run.signals, run.alerts)
      : await this.alerts(view);
    return { run, view: { ...view, alerts }, history };
  }
}
