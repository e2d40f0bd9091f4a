/**
 * @module ledger/trade-columns
 * The trades of one ledger (or one replay) held column by column, in the
 * order of their signal records: typed arrays for the numbers, small codes
 * for the words a trade shares with many others (symbol, pattern, band,
 * timeframe, direction, regime, dates, alert verdicts), so 800k records'
 * worth of trades is tens of megabytes the garbage collector never walks,
 * and a pass over every trade is a loop over arrays. `trade(i)` gives the `Trade` back
 * (ledger/performance) for the few that are listed, `signalFacts(i)` what
 * `tradeOf` reads of its signal (to make it again when its outcome arrives).
 *
 * @example
 * const columns = new TradeColumns();
 * const i = columns.add(1, tradeOf(signal, { outcome: 'open' }), { detectedMs: Date.parse(signal.detectedAt), stopLoss: 95, target1: 110 });
 * columns.update(i, tradeOf(columns.signalFacts(i), outcome));
 * columns.trade(i).outcome; // => 'win'
 */
import type { Trade } from './performance';

const OUTCOMES: readonly Trade['outcome'][] = ['open', 'win', 'loss', 'scratch'];
const OUTCOME_CODE = new Map(OUTCOMES.map((o, i) => [o, i]));

const grown = <T extends Float64Array | Int32Array | Uint8Array>(a: T, size: number): T => {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
};

export class TradeColumns {
  /** Trades held. */
  n = 0;
  seq = new Float64Array(64);
  detectedMs = new Float64Array(64);
  confidence = new Float64Array(64);
  rMultiple = new Float64Array(64);
  daysHeld = new Float64Array(64);
  entry = new Float64Array(64);
  stopLoss = new Float64Array(64);
  target1 = new Float64Array(64);
  /** Index into OUTCOMES. */
  outcome = new Uint8Array(64);
  entered = new Uint8Array(64);
  /** 1 when the trade has levels (an entered, closed trade with a stop and target1). */
  hasLevels = new Uint8Array(64);
  /** Codes into `words` (−1: none). */
  symbol = new Int32Array(64);
  patternType = new Int32Array(64);
  scoreBand = new Int32Array(64);
  timeframe = new Int32Array(64);
  direction = new Int32Array(64);
  regime = new Int32Array(64);
  detectedAt = new Int32Array(64);
  entryAt = new Int32Array(64);
  /** The alert policy's verdict as surfaced, as a code of its JSON (−1: none kept). */
  alert = new Int32Array(64);
  /** The signal's stop and target1 as surfaced (NaN: none), whatever became of it. */
  signalStop = new Float64Array(64);
  signalTarget = new Float64Array(64);
  id: string[] = [];
  /** The words the codes stand for. */
  readonly words: string[] = [];
  private readonly codes = new Map<string, number>();

  /** The code of a word (made on first sight). */
  code(word: string): number {
    let code = this.codes.get(word);
    if (code === undefined) {
      code = this.words.push(word) - 1;
      this.codes.set(word, code);
    }
    return code;
  }

  /**
   * Takes `n` trades already in the arrays and the words their codes stand
   * for (ledger/book-snapshot), and rebuilds the words' codes from them.
   */
  restore(n: number, words: readonly string[]): void {
    this.n = n;
    this.words.length = 0;
    this.codes.clear();
    for (const word of words) this.code(word);
  }

  /** The code of a word already seen, or −1. */
  codeOf(word: string): number {
    return this.codes.get(word) ?? -1;
  }

  /** Where the trade of the signal record `seq` is held, or −1. */
  indexOf(seq: number): number {
    // Seqs are held in ascending order (`add`): a binary search, no lookup table to build or keep.
    let [lo, hi] = [0, this.n - 1];
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.seq[mid]!;
      if (at === seq) return mid;
      if (at < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * Holds the trade of signal record `seq` (after every trade held: seqs come
   * in order), with the record's detection time (what the monthly rollup
   * reads) and the signal's stop and target1. Answers its index.
   */
  add(seq: number, t: Trade, record: { detectedMs: number; stopLoss: number | null; target1: number | null }): number {
    if (this.n > 0 && seq <= this.seq[this.n - 1]!) throw new RangeError(`trade columns: seq ${seq} after ${this.seq[this.n - 1]}`);
    const i = this.n++;
    if (i >= this.seq.length) this.grow(this.seq.length * 2);
    this.id[i] = t.id;
    this.seq[i] = seq;
    this.detectedMs[i] = record.detectedMs;
    this.signalStop[i] = record.stopLoss ?? Number.NaN;
    this.signalTarget[i] = record.target1 ?? Number.NaN;
    this.update(i, t);
    return i;
  }

  /** Rewrites what the trade at `i` says (its outcome arrived). */
  update(i: number, t: Trade): void {
    this.confidence[i] = t.confidence ?? Number.NaN;
    this.rMultiple[i] = t.rMultiple ?? Number.NaN;
    this.daysHeld[i] = t.daysHeld ?? Number.NaN;
    this.outcome[i] = OUTCOME_CODE.get(t.outcome) ?? 0;
    this.entered[i] = t.entered ? 1 : 0;
    this.hasLevels[i] = t.levels ? 1 : 0;
    this.entry[i] = t.levels?.entry ?? Number.NaN;
    this.stopLoss[i] = t.levels?.stopLoss ?? Number.NaN;
    this.target1[i] = t.levels?.target1 ?? Number.NaN;
    this.entryAt[i] = t.levels ? this.code(t.levels.entryAt) : -1;
    this.symbol[i] = this.code(t.symbol);
    this.patternType[i] = this.code(t.patternType);
    this.scoreBand[i] = this.code(t.scoreBand);
    this.timeframe[i] = this.code(t.timeframe);
    this.direction[i] = this.code(t.direction);
    this.regime[i] = this.code(t.regime);
    this.detectedAt[i] = this.code(t.detectedAt);
    this.alert[i] = t.alert ? this.code(JSON.stringify(t.alert)) : -1;
  }

  /** What `tradeOf` reads of the signal at `i` (ledger/performance), as surfaced. */
  signalFacts(i: number): Record<string, unknown> {
    const w = this.words;
    return {
      id: this.id[i],
      symbol: w[this.symbol[i]!],
      patternType: w[this.patternType[i]!],
      scoreBand: w[this.scoreBand[i]!],
      timeframe: w[this.timeframe[i]!],
      direction: w[this.direction[i]!],
      regime: w[this.regime[i]!],
      detectedAt: w[this.detectedAt[i]!],
      confidence: TradeColumns.value(this.confidence[i]!),
      stopLoss: TradeColumns.value(this.signalStop[i]!),
      target1: TradeColumns.value(this.signalTarget[i]!),
      alert: this.alertOf(i),
    };
  }

  /** The alert verdict of the trade at `i`, or null. */
  alertOf(i: number): Trade['alert'] {
    const code = this.alert[i]!;
    return code < 0 ? null : (JSON.parse(this.words[code]!) as Trade['alert']);
  }

  outcomeOf(i: number): Trade['outcome'] {
    return OUTCOMES[this.outcome[i]!]!;
  }

  /** A held number, or null where none was recorded. */
  static value(x: number): number | null {
    return Number.isNaN(x) ? null : x;
  }

  /** The `Trade` at index `i`. */
  trade(i: number): Trade {
    const w = this.words;
    const value = TradeColumns.value;
    return {
      id: this.id[i]!,
      symbol: w[this.symbol[i]!]!,
      patternType: w[this.patternType[i]!]!,
      scoreBand: w[this.scoreBand[i]!]!,
      timeframe: w[this.timeframe[i]!]!,
      direction: w[this.direction[i]!]!,
      regime: w[this.regime[i]!]!,
      detectedAt: w[this.detectedAt[i]!]!,
      confidence: value(this.confidence[i]!),
      levels: this.hasLevels[i] ? { entry: this.entry[i]!, entryAt: w[this.entryAt[i]!]!, stopLoss: this.stopLoss[i]!, target1: this.target1[i]! } : null,
      alert: this.alertOf(i),
      outcome: this.outcomeOf(i),
      entered: this.entered[i] === 1,
      rMultiple: value(this.rMultiple[i]!),
      daysHeld: value(this.daysHeld[i]!),
    };
  }

  private grow(size: number): void {
    this.seq = grown(this.seq, size);
    this.detectedMs = grown(this.detectedMs, size);
    this.confidence = grown(this.confidence, size);
    this.rMultiple = grown(this.rMultiple, size);
    this.daysHeld = grown(this.daysHeld, size);
    this.entry = grown(this.entry, size);
    this.stopLoss = grown(this.stopLoss, size);
    this.target1 = grown(this.target1, size);
    this.outcome = grown(this.outcome, size);
    this.entered = grown(this.entered, size);
    this.hasLevels = grown(this.hasLevels, size);
    this.symbol = grown(this.symbol, size);
    this.patternType = grown(this.patternType, size);
    this.scoreBand = grown(this.scoreBand, size);
    this.timeframe = grown(this.timeframe, size);
    this.direction = grown(this.direction, size);
    this.regime = grown(this.regime, size);
    this.detectedAt = grown(this.detectedAt, size);
    this.alert = grown(this.alert, size);
    this.entryAt = grown(this.entryAt, size);
    this.signalStop = grown(this.signalStop, size);
    this.signalTarget = grown(this.signalTarget, size);
  }
}
