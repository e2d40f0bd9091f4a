/**
 * Option kernel throughput on one core (one thread): Black–Scholes–Merton
 * prices and greeks over 1,000,000 options, and implied-volatility solves
 * over 100,000 (10× fewer with `--smoke`), on a synthetic book around spot
 * 100: log-strikes ±40%, 1 day to 2 years, vols 5–100%, rates 0–5%, yields
 * 0–3%, calls and puts. Each row is the median of several timed runs after
 * a warm-up. The implied-vol row solves the book's own prices, so it also
 * reports the worst error in σ where vega ≥ 0.01 (σ is determined there).
 * Product goals: ≥ 10M prices/s and ≥ 1M IV solves/s per core. Then
 * /api/options/analyze latency (p50/p95/p99, in-process).
 *
 * Run: `bun run bench/options.ts [--smoke]`.
 */
import { blackScholesGreeks1d, blackScholesPrice, blackScholesPrice1d, type OptionColumns } from '../src/kernels/options/black-scholes';
import { IMPLIED_VOL_REASONS, impliedVol1d } from '../src/kernels/options/implied-vol';
import { inProcessLatency, printTable, smoke } from './lib';
import { seededRandom } from '../src/kernels/random';

function syntheticBook(length: number, seed: number): OptionColumns {
  const rand = seededRandom(seed);
  const column = (draw: () => number) => Float64Array.from({ length }, draw);
  return {
    callPut: Int8Array.from({ length }, () => (rand() < 0.5 ? 1 : -1)),
    spot: column(() => 100),
    strike: column(() => 100 * Math.exp(0.8 * (rand() - 0.5))),
    years: column(() => 1 / 365 + 2 * rand()),
    rate: column(() => 0.05 * rand()),
    vol: column(() => 0.05 + 0.95 * rand()),
    dividendYield: column(() => 0.03 * rand()),
  };
}

/** Median wall time of `runs` calls, in seconds, after `warmup` untimed calls. */
function medianSeconds(fn: () => void, runs: number, warmup: number): number {
  for (let k = 0; k < warmup; k++) fn();
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const start = Bun.nanoseconds();
    fn();
    times.push((Bun.nanoseconds() - start) / 1e9);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function benchOptions(): Promise<void> {
  const pricing = smoke ? 100_000 : 1_000_000;
  const solving = smoke ? 10_000 : 100_000;
  const runs = smoke ? 3 : 9;
  const book = syntheticBook(pricing, 20240601);
  const price = new Float64Array(pricing);
  const greeks = { price: new Float64Array(pricing), delta: new Float64Array(pricing), gamma: new Float64Array(pricing), vega: new Float64Array(pricing), theta: new Float64Array(pricing), rho: new Float64Array(pricing) };

  const priceSeconds = medianSeconds(() => blackScholesPrice1d(book, price), runs, 3);
  const greeksSeconds = medianSeconds(() => blackScholesGreeks1d(book, greeks), runs, 3);
  // The one-option API for comparison: argument checks and a string kind per call.
  let sink = 0;
  const scalarSeconds = medianSeconds(() => {
    const { callPut, spot, strike, years, rate, vol, dividendYield } = book;
    for (let i = 0; i < pricing; i++) sink += blackScholesPrice(callPut[i] === 1 ? 'call' : 'put', spot[i]!, strike[i]!, years[i]!, rate[i]!, vol[i]!, dividendYield[i]!);
  }, runs, 3);
  if (sink !== sink) console.log('unexpected NaN in the scalar run');

  // Implied vols of the first `solving` options' own prices.
  const slice = (a: Float64Array) => a.subarray(0, solving);
  const quotes = { ...book, callPut: book.callPut.subarray(0, solving), spot: slice(book.spot), strike: slice(book.strike), years: slice(book.years), rate: slice(book.rate), vol: slice(book.vol), dividendYield: slice(book.dividendYield) };
  const quoted = slice(price).slice();
  const vols = new Float64Array(solving);
  const reasons = new Uint8Array(solving);
  const solveSeconds = medianSeconds(() => impliedVol1d(quotes, quoted, vols, reasons), runs, 3);
  let worst = 0;
  let failures = 0;
  for (let i = 0; i < solving; i++) {
    if (reasons[i] !== 0) failures++;
    else if (greeks.vega[i]! >= 0.01) worst = Math.max(worst, Math.abs(vols[i]! - quotes.vol[i]!));
  }

  const row = (kernel: string, options: number, seconds: number, goal: number, check: string) => ({
    kernel,
    options,
    'M options/s': options / seconds / 1e6,
    'ns/option': (seconds / options) * 1e9,
    goal: goal > 0 ? `≥ ${goal / 1e6}M/s ${options / seconds >= goal ? 'met' : 'MISSED'}` : '',
    check,
  });
  printTable(`Option kernels, one core (median of ${runs} runs)`, [
    row('blackScholesPrice1d', pricing, priceSeconds, 10e6, ''),
    row('blackScholesGreeks1d (price + 5 greeks)', pricing, greeksSeconds, 0, ''),
    row('blackScholesPrice, one call at a time', pricing, scalarSeconds, 0, ''),
    row('impliedVol1d', solving, solveSeconds, 1e6, `max |Δσ| ${worst.toExponential(1)} where vega ≥ 0.01; ${failures} not ${IMPLIED_VOL_REASONS[0]}`),
  ]);
  await benchAnalyze();
}

/** /api/options/analyze latency in-process (app.handle, the worker pool included). */
async function benchAnalyze(): Promise<void> {
  await inProcessLatency('/api/options/analyze latency, in-process (app.handle; grid priced in the worker pool)', [
    '/api/options/analyze?symbol=AAPL&trigger=100&target=110&stop=95',
    '/api/options/analyze?symbol=NVDA&trigger=200&target=230&stop=190&ivRank=70&expiryDays=45',
  ]);
}

if (import.meta.main) await benchOptions();
