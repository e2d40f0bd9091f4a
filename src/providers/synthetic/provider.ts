/**
 * @module providers/synthetic/provider
 * The `synthetic` market-data provider: the simulated market over the real
 * index membership, from `HISTORY_START` (2019-01-02) to the provider's clock.
 *
 * Everything is lazy: the factors are built on the first request of a New
 * York day (and rebuilt when the day changes — being causal, the rebuild
 * reproduces every earlier session exactly), a symbol's daily path on its
 * first request, its intraday bars for the asked window on demand. Daily
 * history covers every session; 1h and 4h bars cover the 126 sessions (about
 * six months) ending at the session of `min(to, now)`. While a session is
 * open its bars end at the quote of `now`; nothing after `now` is returned.
 * In the server a cold symbol's daily path is drawn in a worker thread
 * (`drawColdInWorker`; issue 27: a sector fund's 5–20 ms after a restart).
 */
import { isoDate, newYorkDate, newYorkToUtc, parseIsoDate } from '../new-york-time';
import { loadInstruments } from '../universe';
import { emptySeries, ProviderError, sliceSeries, type BarSeries, type BarsQuery, type Capability, type EarningsEvent, type Filing, type FloatData, type InsiderTransaction, type Instrument, type MarketDataProvider, type OptionChain, type QuoteTime, type SelfCheck, type ShortInterestReport, type Snapshot, type SocialDay } from '../types';
import { TIMEFRAMES, type Timeframe } from '../../domain/signal';
import { companyEarnings, companyFilings, companyFloat, companyInsiders, companyOptionChain, companyShortInterest, companySocial, type Company } from './company-answers';
import { BarColumns, SOURCE } from './columns';
import { earningsDatesOf } from './earnings';
import { visibleAsOf, type PatternRecord } from './records';
import { appendIntradayBars, drawIntraday, MOST_BARS_PER_SESSION, scratchGrid, sessionGrid } from './intraday';
import { buildWorld, type World } from './market';
import { HeldPath } from './held-path';
import { simulateDaily } from './paths';
import { symbolProfile, type SymbolProfile } from './profile';
import { clockState, lastOpenedSession, partialDay, quoteAt } from './quote';
import type { SessionGrid } from './session-grid';
import type { DrawnSymbol, DrawRequest } from './daily-worker';
import { WorkerDraws } from './draws';

export interface SyntheticProviderOptions {
  /** Seed of the whole market (default 42, `SYNTHETIC_SEED`). */
  seed?: number;
  /** The clock (default `Date.now`); tests pin it. */
  now?: () => number;
}

/** Sessions of intraday history served. */
export const INTRADAY_SESSIONS = 126;
export const DEFAULT_SEED = 42;

/** What one pass of the worker threads draws (a DrawRequest without the seed the draws add). */
type DrawPlan = Omit<DrawRequest, 'seed'>;

interface SymbolState {
  profile: SymbolProfile;
  /** The daily path over every session of the world, held compactly (held-path.ts); its bars' times are the provider's `sessionTs`. */
  daily: HeldPath;
  /** The 1h and 4h bars of the last window asked, held until both timeframes have been served once. */
  intraday?: { from: number; to: number; hour: BarColumns; block: BarColumns; served: Set<string> };
  grid?: SessionGrid;
}

/** The fewest symbols `prepare` draws in worker threads (a universe's worth; fewer are drawn on demand). */
const PREPARE_IN_WORKERS = 200;

export class SyntheticProvider implements MarketDataProvider {
  readonly name = SOURCE;
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>(
    ['bars', 'snapshot', 'earnings', 'float', 'insider', 'options_chain', 'options_flow', 'short_interest', 'filings', 'social'],
  );
  readonly synthetic = true;
  readonly remote = false;
  readonly testSymbol = 'SPY';
  /** 1h and 4h bars cover `INTRADAY_SESSIONS` sessions at most (the bar store packs those slots to it). */
  readonly longestSeries = { '1h': INTRADAY_SESSIONS * MOST_BARS_PER_SESSION['1h'], '4h': INTRADAY_SESSIONS * MOST_BARS_PER_SESSION['4h'] };
  readonly seed: number;
  private readonly clock: () => number;
  private instruments?: Map<string, Instrument>;
  private world?: World;
  /** The New York date the world was built to. */
  private worldDay?: string;
  /** The times of the world's sessions, one copy every symbol's daily bars are served over (531 copies were 8 MB). */
  private sessionTs?: Float64Array;
  private readonly symbols = new Map<string, SymbolState>();
  /** The worker threads drawing paths (`prepareDaily`, `prepareIntraday`). */
  private readonly draws: WorkerDraws;
  /** The grid every intraday pass draws its sessions on (one at a time), so a pass allocates none. */
  private readonly passGrid = scratchGrid();
  /** Whether a cold symbol's daily path is drawn in a worker thread (`drawColdInWorker`). */
  private coldInWorker = false;

  constructor(options: SyntheticProviderOptions = {}) {
    this.seed = options.seed ?? DEFAULT_SEED;
    this.clock = options.now ?? Date.now;
    this.draws = new WorkerDraws(this.seed, (request, data) => this.drawn(request, data));
  }

  async universe(): Promise<Instrument[]> {
    return loadInstruments();
  }

  async bars({ symbol, timeframe, from, to }: BarsQuery): Promise<BarSeries> {
    if (!TIMEFRAMES.includes(timeframe)) throw new RangeError(`synthetic: no '${timeframe}' bars (one of ${TIMEFRAMES.join(', ')})`);
    const now = this.clock();
    await this.ready(symbol, now);
    const state = this.state(symbol, now);
    const world = this.world!;
    const { complete, live } = clockState(world, now);
    const name = state.profile.symbol;
    let series: BarSeries;
    if (timeframe === 'daily') {
      series = this.dailySeries(name, state, complete, live, now);
    } else {
      const anchor = lastOpenedSession(world, Math.min(to ?? now, now));
      if (anchor < 0) return emptySeries(name, timeframe, SOURCE);
      const first = Math.max(0, anchor - INTRADAY_SESSIONS + 1);
      const { hour, block } = this.intraday(state, first, Math.min(anchor, complete - 1), timeframe);
      const cols = timeframe === '1h' ? hour : block;
      if (anchor === live) {
        const extended = BarColumns.copyOf(cols.bars(), cols.length, 8);
        const other = new BarColumns(8);
        appendIntradayBars(this.grid(state, live), now, timeframe === '1h' ? extended : other, timeframe === '1h' ? other : extended);
        series = extended.series(name, timeframe);
      } else series = cols.series(name, timeframe);
    }
    return sliceSeries(series, from, Math.min(to ?? now, now));
  }

  async snapshot({ symbol, at }: { symbol: string; at?: number }): Promise<Snapshot> {
    const now = this.clock();
    // A quote needs the symbol's daily path only: a draw of its 1h and 4h bars in flight (a universe's worth, on a
    // pool busy with background work: seconds) is not waited for once the path is held (issue 27: quotes 6.8 s old).
    const name = this.instrument(symbol).symbol;
    if (this.worldDay !== newYorkDate(now) || !this.symbols.has(name)) await this.ready(name, now);
    const state = this.state(symbol, now);
    const quote = quoteAt(state.profile.symbol, this.world!, state.daily, state.profile.startPrice, Math.min(at ?? now, now), (i) =>
      this.grid(state, i),
    );
    if (!quote) throw new ProviderError('unavailable', SOURCE, state.profile.symbol, 'no simulated session before 2019-01-02 09:30 New York');
    return quote;
  }

  /**
   * The time of the quote `snapshot` answers now: the clock inside a session
   * (the quote is a function of the instant: it holds for this millisecond),
   * the last close outside one (the same quote until the next open, or the
   * next New York midnight, when the world is built again, whichever comes
   * first). Undefined until the symbol's state is built under the world of
   * today (the next `snapshot` builds it).
   */
  quoteTime(symbol: string): QuoteTime | undefined {
    const now = this.clock();
    const world = this.world;
    const day = this.worldDay;
    if (!world || day === undefined || this.draws.has(symbol) || !this.symbols.has(symbol) || day !== newYorkDate(now)) return undefined;
    const { complete, live } = clockState(world, now);
    if (live >= 0) return { time: now, until: now + 1 };
    if (complete === 0) return undefined;
    const midnight = newYorkToUtc(isoDate(parseIsoDate(day) + 1), '00:00');
    return { time: world.closeTs[complete - 1]!, until: complete < world.openTs.length ? Math.min(world.openTs[complete]!, midnight) : midnight };
  }

  now(): number {
    return this.clock();
  }

  async selfCheck(): Promise<SelfCheck> {
    const started = performance.now();
    try {
      const series = await this.bars({ symbol: this.testSymbol, timeframe: 'daily' });
      const latencyMs = Math.round((performance.now() - started) * 100) / 100;
      if (series.ts.length === 0) {
        return { status: 'warn', provider: SOURCE, symbol: this.testSymbol, latencyMs, message: `synthetic (${this.testSymbol}): no sessions before the clock` };
      }
      return { status: 'ok', provider: SOURCE, symbol: this.testSymbol, latencyMs };
    } catch (error) {
      const latencyMs = Math.round((performance.now() - started) * 100) / 100;
      return { status: 'down', provider: SOURCE, symbol: this.testSymbol, latencyMs, message: String(error) };
    }
  }

  /** Report dates of `symbol` from 2019 to the calendar's end (known ahead, as announced dates are); empty for funds. */
  earningsDates(symbol: string): string[] {
    return earningsDatesOf(symbolProfile(this.seed, this.instrument(symbol)));
  }

  async earnings(symbol: string): Promise<EarningsEvent[]> {
    return companyEarnings(await this.company(symbol));
  }

  async float(symbol: string): Promise<FloatData> {
    return companyFloat(await this.company(symbol));
  }

  async insiderTransactions(symbol: string, range: { from: string; to: string }): Promise<InsiderTransaction[]> {
    return companyInsiders(await this.company(symbol), range);
  }

  async shortInterest(symbol: string): Promise<ShortInterestReport[]> {
    return companyShortInterest(await this.company(symbol));
  }

  async filings(symbol: string, { limit }: { limit: number }): Promise<Filing[]> {
    return companyFilings(await this.company(symbol), limit);
  }

  async social(symbol: string, { days }: { days: number }): Promise<SocialDay[]> {
    return companySocial(await this.company(symbol), days);
  }

  async optionChain(symbol: string, options: { expiry?: string } = {}): Promise<OptionChain> {
    const company = await this.company(symbol);
    return companyOptionChain(company, await this.snapshot({ symbol, at: company.now }), options.expiry);
  }

  /** The state the alternative-data answers read (./company-answers). */
  private async company(symbol: string): Promise<Company> {
    const now = this.clock();
    const bars = await this.bars({ symbol, timeframe: 'daily' });
    return { profile: this.state(symbol, now).profile, bars, today: newYorkDate(now), now };
  }

  /**
   * The chart patterns injected into `symbol`'s path that had begun by the
   * last closed session, with what was known then: a pattern still forming
   * has no pivot yet and an unresolved one is `pending`.
   */
  injectedPatterns(symbol: string): PatternRecord[] {
    const now = this.clock();
    const state = this.state(symbol, now);
    const { complete } = clockState(this.world!, now);
    if (complete === 0) return [];
    const asOf = this.world!.dates[complete - 1]!;
    return state.daily.patterns.filter((r) => r.trendStart <= asOf).map((r) => visibleAsOf(r, asOf));
  }

  /**
   * Draws the daily paths of `symbols` (default: the whole universe) in
   * `threads` worker threads (daily-worker.ts), off the main thread, so a
   * server's first scan does not wait on the simulation while its database
   * opens. `bars` and `snapshot` of those symbols wait until they are in; the
   * bars are the same as drawn on demand. Without worker threads (or when one
   * fails) the paths are drawn on demand as before. Resolves when all are in,
   * with how many the worker threads drew.
   */
  prepareDaily(options: { symbols?: string[]; threads?: number } = {}): Promise<number> {
    return this.drawPlanned(this.dailyPlan(options.symbols), options.threads);
  }

  /**
   * Draws the 1h and 4h bars `bars` serves as of now (the 126 sessions up to
   * the last one opened) of `symbols` (default: the whole universe) in worker
   * threads, as `prepareDaily` does the daily paths: a boot pass over the
   * intraday timeframes then leaves the main thread free for requests.
   */
  prepareIntraday(options: { symbols?: string[]; threads?: number } = {}): Promise<number> {
    return this.drawPlanned(this.intradayPlan(options.symbols), options.threads);
  }

  /**
   * The provider's `prepare`: the daily paths, or the 1h and 4h bars, of
   * `symbols` drawn in worker threads (above) when there are a universe's
   * worth (PREPARE_IN_WORKERS); fewer are drawn on demand, a few milliseconds
   * each, as starting a worker thread costs about what a hundred paths do.
   */
  async prepare({ symbols, timeframe }: { symbols: string[]; timeframe: Timeframe }): Promise<void> {
    if (symbols.length < PREPARE_IN_WORKERS) return;
    const plan = timeframe === 'daily' ? this.dailyPlan(symbols) : this.intradayPlan(symbols);
    await this.drawPlanned(plan);
  }

  /** The daily paths to draw today: those of `symbols` (default: the universe) neither held nor being drawn. */
  private dailyPlan(symbols = this.universeSymbols()): DrawPlan {
    const day = newYorkDate(this.clock());
    this.world_(day);
    return { day, symbols: symbols.filter((s) => !this.symbols.has(s) && !this.draws.has(s)) };
  }

  /** The 1h and 4h bars to draw as of now: the window of sessions `bars` serves, for `symbols` not holding exactly it; none before the first session opens. */
  private intradayPlan(symbols = this.universeSymbols()): DrawPlan | undefined {
    const now = this.clock();
    const day = newYorkDate(now);
    const world = this.world_(day);
    const anchor = lastOpenedSession(world, now);
    if (anchor < 0) return undefined;
    const window = { first: Math.max(0, anchor - INTRADAY_SESSIONS + 1), last: Math.min(anchor, clockState(world, now).complete - 1) };
    const held = (s: string) => this.symbols.get(s)?.intraday;
    return { day, symbols: symbols.filter((s) => held(s)?.from !== window.first || held(s)?.to !== window.last), window };
  }

  /** From now on a daily path neither held nor being drawn is drawn in a kept worker thread (./draws; cli/serve), the caller's if it fails. */
  drawColdInWorker(): void {
    this.coldInWorker = true;
  }

  /** Ends the worker thread kept for cold draws, if one runs (the process closing). */
  close(): void {
    this.draws.close();
  }

  /** Waits until `symbol`'s daily path is in when worker threads draw it, handing a cold one to them first (`drawColdInWorker`). */
  private async ready(symbol: string, now: number): Promise<void> {
    if (this.coldInWorker) {
      const name = this.instrument(symbol).symbol; // an unknown symbol is refused here, as `state` would
      if (!this.symbols.has(name) || this.worldDay !== newYorkDate(now)) {
        const plan = this.dailyPlan([name]);
        if (plan.symbols.length > 0) await this.draws.drawOnDemand(plan.day, plan.symbols);
      }
      symbol = name;
    }
    await this.draws.prepared(symbol);
  }

  /** Hands a plan to the worker threads; resolves with how many they drew. */
  private drawPlanned(plan: DrawPlan | undefined, threads?: number): Promise<number> {
    return plan ? this.draws.draw(plan.day, plan.symbols, threads, plan.window) : Promise.resolve(0);
  }

  private universeSymbols(): string[] {
    return loadInstruments().map((i) => i.symbol);
  }

  /** A symbol's paths a worker thread drew: installed, unless the world moved to another day meanwhile. */
  private drawn(request: DrawRequest, data: DrawnSymbol): void {
    if (this.worldDay !== request.day) return;
    const state = this.symbols.get(data.symbol) ?? this.install(this.instrument(data.symbol), HeldPath.from(data.daily));
    const { window } = request;
    if (window && data.intraday && (state.intraday?.from !== window.first || state.intraday.to !== window.last)) {
      const { hour, hourLength, block, blockLength } = data.intraday;
      state.intraday = { from: window.first, to: window.last, hour: BarColumns.over(hour, hourLength), block: BarColumns.over(block, blockLength), served: new Set() };
    }
  }

  /** The world of New York day `day`, built when the day changes (the symbols' states go with the old one). */
  private world_(day: string): World {
    if (!this.world || this.world.dates.length === 0 || this.worldDay !== day) {
      this.world = buildWorld(this.seed, day);
      this.worldDay = day;
      this.sessionTs = this.world.dayTs.slice();
      this.symbols.clear();
    }
    return this.world;
  }

  private install(instrument: Instrument, daily: HeldPath): SymbolState {
    const state = { profile: symbolProfile(this.seed, instrument), daily };
    this.symbols.set(instrument.symbol, state);
    return state;
  }

  /** The symbol's state under the world of `now`, built on first use. */
  private state(symbol: string, now: number): SymbolState {
    const instrument = this.instrument(symbol);
    const world = this.world_(newYorkDate(now));
    return this.symbols.get(instrument.symbol) ?? this.install(instrument, HeldPath.of(simulateDaily(world, symbolProfile(this.seed, instrument))));
  }

  private instrument(symbol: string): Instrument {
    this.instruments ??= new Map(loadInstruments().map((i) => [i.symbol, i]));
    const found = this.instruments.get(symbol) ?? this.instruments.get(symbol.toUpperCase());
    if (!found) throw new ProviderError('unknown_symbol', SOURCE, symbol, 'not in the synthetic universe (S&P 500, Nasdaq-100, sector ETFs, SPY/QQQ/IWM)');
    return found;
  }

  private dailySeries(symbol: string, state: SymbolState, complete: number, live: number, now: number): BarSeries {
    const ts = this.sessionTs!;
    if (live < 0) return { symbol, timeframe: 'daily', ...state.daily.ohlcv(ts, complete), source: SOURCE };
    const cols = BarColumns.over(state.daily.ohlcv(ts, complete, 1), complete);
    const day = partialDay(this.grid(state, live), now);
    cols.push(ts[live]!, day.open, day.high, day.low, day.close, day.volume);
    return cols.series(symbol, 'daily');
  }

  /**
   * 1h and 4h bars of the complete sessions `first..last`, drawn together and
   * held per symbol for the last window asked until both timeframes have been
   * served (the bar store keeps what was served; a boot pass asks for 4h,
   * then 1h). The bars handed out are views, never written to afterwards.
   */
  private intraday(state: SymbolState, first: number, last: number, timeframe: string): { hour: BarColumns; block: BarColumns } {
    let hit = state.intraday;
    if (!hit || hit.from !== first || hit.to !== last) {
      const { openTs, closeTs } = this.world!;
      hit = state.intraday = { from: first, to: last, ...drawIntraday(state.profile.seed, openTs, closeTs, state.daily, first, last, this.passGrid), served: new Set() };
    }
    hit.served.add(timeframe);
    if (hit.served.size === 2) state.intraday = undefined;
    return hit;
  }

  private grid(state: SymbolState, session: number): SessionGrid {
    if (state.grid?.session === session) return state.grid;
    const world = this.world!;
    state.grid = sessionGrid(state.profile.seed, session, world.openTs[session]!, world.closeTs[session]!, state.daily);
    return state.grid;
  }
}
