/**
 * @module jobs/signal-reads
 * The signals read model: what a reader of breakout signals sees for a
 * question (a timeframe, some symbols, a date). It owns the whole read, start
 * to end — the latest persisted run of the timeframe (jobs/runs), the part of
 * it about the requested symbols plus an on-demand scan of those outside the
 * universe, or a point-in-time replay of the universe at `asOf`; the alert
 * policy's verdicts of the scans it makes (jobs/alerts), merged with the
 * run's (kernels/signal-view); and the answers readers make of a read drawn from the persisted run
 * alone, held with that run (a new run starts empty) so that polling the same
 * view does no work.
 *
 * It returns values: the caller shapes and pages them once, after the read
 * (the REST service keeps its serialised bodies here), GraphQL reads the same
 * values. In DESIGN §2 terms it is request-path orchestration of scans and
 * alerts (what a read needs), so it lives in jobs/, above runs and scans and
 * below every module.
 *
 * @example
 * const reads = new SignalReads<string>({ marketData, barStore, pool, scans, runs, log });
 * const read = await reads.read('daily', { symbols: ['AAPL', 'MSFT'] });
 * read.view.signals; // ranked best first
 * read.answers?.keep(key, () => JSON.stringify(shapeOf(read))); // made once per run
 */
import type { RunSummary, ScansRepository } from '../db/repositories/scans';
import type { Signal, Timeframe } from '../domain/signal';
import { AppError } from '../errors';
import type { Logger } from '../log';
import { unknownSymbol } from '../market-data';
import { alertsAt } from './alerts';
import type { SignalRuns } from './runs';
import { defaultUniverse, runScan, type ScanDeps } from './scan';
import { joined, narrowed, type SignalView } from '../kernels/signal-view';

export interface SignalReadsDeps extends ScanDeps {
  /** The alert log, for the cooldown of the scans made here. */
  scans: Pick<ScansRepository, 'recentAlerts'>;
  runs: Pick<SignalRuns, 'current' | 'latest'>;
  log: Logger;
}

/** What narrows a read: symbols (upper-case; default the whole universe) and a date to replay (`YYYY-MM-DD`; default the latest persisted run). */
export interface Narrowing {
  symbols?: readonly string[];
  asOf?: string;
}

/** What a reader sees: the signals and alert verdicts of one scan, the timeframe's run history and, for a read of the persisted run alone, the answers held with it. */
export interface SignalRead<A> {
  view: SignalView;
  /** The newest persisted runs of the timeframe, newest first. */
  history: RunSummary[];
  /** Answers made of this read, held with its run; absent for a replay or an on-demand scan (made anew each time). */
  answers?: HeldAnswers<A>;
}

/** Answers held per persisted run at most (a client sending ever new queries cannot grow memory without bound). */
export const ANSWERS_PER_RUN = 1024;

/** The answers readers made of one persisted run, by the reader's key; bounded (full: emptied, then filled again). */
export class HeldAnswers<A> {
  private readonly held = new Map<string, A>();

  constructor(readonly runId: string) {}

  /** The answer held under `key`, made by `make` (and held) when there is none. */
  keep(key: string, make: () => A): A {
    const hit = this.held.get(key);
    if (hit !== undefined) return hit;
    const answer = make();
    if (this.held.size >= ANSWERS_PER_RUN) this.held.clear();
    this.held.set(key, answer);
    return answer;
  }
}

/** What a read keeps of the persisted run (none for a past day) and what it scans beside it, if anything. */
interface Plan<A> {
  kept?: SignalView;
  history: RunSummary[];
  answers?: HeldAnswers<A>;
  scan?: { asOfTs: number; symbols?: string[] };
}

export class SignalReads<A> {
  /** The answers of each timeframe's latest persisted run. */
  private readonly answers = new Map<Timeframe, HeldAnswers<A>>();

  constructor(private readonly deps: SignalReadsDeps) {}

  /**
   * The signals of `timeframe` a reader sees: a replay at `narrowing.asOf`
   * (the end of that day), or the latest persisted run plus an on-demand scan
   * of requested symbols outside the universe. An unknown symbol is a
   * `ProviderError` (`unknown_symbol`, a 404) before anything is scanned; a
   * scan that fails unexpectedly is the spec's `scan_failed` (a 500), its
   * cause logged.
   */
  async read(timeframe: Timeframe, narrowing: Narrowing = {}): Promise<SignalRead<A>> {
    const { symbols, asOf } = narrowing;
    const instruments = await this.deps.marketData.instruments();
    const unknown = symbols?.find((s) => !instruments.has(s));
    if (unknown !== undefined) throw unknownSymbol(this.deps.marketData.provider.name, unknown);
    const plan = await (asOf ? this.pastDay(timeframe, asOf) : this.today(timeframe, symbols)).catch(this.failed);
    if (!plan.scan) return { view: plan.kept!, history: plan.history, answers: plan.answers };
    const scanned = await this.scan(timeframe, plan.scan.asOfTs, plan.scan.symbols).catch(this.failed);
    // Today: the run's part and the on-demand scan ranked as one; a past day: the universe's replay narrowed to the symbols.
    const view = plan.kept ? joined(plan.kept, scanned) : symbols ? narrowed(scanned, symbols) : scanned;
    return { view, history: plan.history };
  }

  /**
   * A scan as of `asOfTs` (the last bar at or before it), over the universe or
   * `symbols`, with the alert policy's verdicts; nothing is persisted.
   */
  async scan(timeframe: Timeframe, asOfTs: number, symbols?: string[]): Promise<SignalView> {
    const result = await runScan(this.deps, { timeframe, asOfTs, symbols });
    const alerts = await alertsAt({ scans: this.deps.scans, provider: this.deps.marketData.provider }, result);
    return { timeframe: result.timeframe, asOf: result.asOf, generatedAt: result.finishedAt, regime: result.regime, signals: result.signals, alerts };
  }

  /** A past day: the whole universe is replayed at its end (ranks and breadth are cross-sectional), beside the run history readers of today see. */
  private async pastDay(timeframe: Timeframe, asOf: string): Promise<Plan<A>> {
    const latest = await this.deps.runs.latest(timeframe);
    return { history: latest?.history ?? [], scan: { asOfTs: Date.parse(`${asOf}T23:59:59.999Z`) } };
  }

  /** Today: the latest persisted run (its answers held with it), narrowed to the symbols, and a scan at its bar of those outside the universe. */
  private async today(timeframe: Timeframe, symbols: readonly string[] | undefined): Promise<Plan<A>> {
    const latest = await this.deps.runs.current(timeframe);
    const answers = this.answersOf(latest.run);
    if (!symbols) return { kept: latest.view, history: latest.history, answers };
    const universe = new Set(await defaultUniverse(this.deps.marketData));
    const outside = symbols.filter((s) => !universe.has(s));
    const kept = narrowed(latest.view, symbols);
    if (outside.length === 0) return { kept, history: latest.history, answers };
    return { kept, history: latest.history, scan: { asOfTs: Date.parse(latest.view.asOf), symbols: outside } };
  }

  /** The answers held with `run`, the latest persisted one of its timeframe: a newer run starts empty. */
  private answersOf(run: { id: string; timeframe: Timeframe }): HeldAnswers<A> {
    let held = this.answers.get(run.timeframe);
    if (held?.runId !== run.id) {
      held = new HeldAnswers<A>(run.id);
      this.answers.set(run.timeframe, held);
    }
    return held;
  }

  /** A scan's unexpected failure as the spec's 500 "scan failed", its cause logged (an AppError — a 404, say — passes as it is). */
  private readonly failed = (error: unknown): never => {
    if (error instanceof AppError) throw error;
    this.deps.log.error('scan failed', { error: String(error), stack: (error as Error).stack });
    throw new AppError('scan_failed', 'The scan failed; the cause is in the server log');
  };
}
