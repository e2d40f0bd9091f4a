/**
 * @module bench/stall/quotes
 * The quotes of one `/api/stream` subscriber (AAPL, MSFT) over a phase: per
 * symbol the longest gap between two quotes, and each quote's age on arrival
 * (the bench's reading of the servers' clock minus the quote's `ts`).
 *
 * One tick is SSE_QUOTE_INTERVAL_MS (1 s by default; the bench leaves it).
 * The synthetic market's quote is the instant's (providers/synthetic
 * `quoteTime`): the feed asks for it at one tick and hands it on at the next
 * (stream/quotes `tick`), so a quote on time arrives about one tick old and
 * each symbol's quotes come one tick apart. A quote is late by more than one
 * tick when it arrives more than two ticks old. A longer gap alone is not
 * lateness: a quote that did not change (the price is the second's, and two
 * ticks can read the same second or the same cent) is not sent again, and a
 * stall shows in the age of the quote sent after it (its `ts` is the instant
 * it was asked for: a poll that waits, or a tick held by a busy loop, ages it).
 */
import { clock } from './clock';
import { cpuProfDir } from './options';

/** SSE_QUOTE_INTERVAL_MS's default (src/config/schema.ts); the bench's servers keep it. */
export const TICK_MS = 1000;

export interface QuotesMeasured {
  quotes: number;
  /** The longest gap between two quotes of one symbol (s), or why there is none. */
  maxGapS: string;
  /** Age on arrival (s): median / slowest. */
  ageS: string;
  /** Quotes that arrived more than two ticks old. */
  late: number;
  /** Those quotes: when each arrived (epoch ms, the servers' clock) and its age (ms). */
  lateArrivals?: { at: number; ageMs: number }[];
}

export const NO_QUOTES: QuotesMeasured = { quotes: 0, maxGapS: '-', ageS: '-', late: 0 };

/** Quote arrivals on a stream, for as long as it is open. */
export function watchQuotes(base: string) {
  const controller = new AbortController();
  const arrivals: { symbol: string; at: number; ageMs: number }[] = [];
  void (async () => {
    try {
      const response = await fetch(`${base}/api/stream?channels=&symbols=AAPL,MSFT`, { signal: controller.signal });
      const decoder = new TextDecoder();
      let buffered = '';
      for await (const chunk of response.body!) {
        const at = clock.now();
        buffered += decoder.decode(chunk, { stream: true });
        for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (!frame.includes('event: quote')) continue;
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          const quote = JSON.parse(data!.slice(6)) as { symbol: string; ts: string };
          arrivals.push({ symbol: quote.symbol, at, ageMs: at - Date.parse(quote.ts) });
        }
      }
    } catch {
      // closed by stop()
    }
  })();
  return {
    stop(): QuotesMeasured {
      controller.abort();
      // Outside the synthetic market's sessions the quote does not move: a stream gets it once, and no gap means anything.
      if (arrivals.length < 3) return { quotes: arrivals.length, maxGapS: '- (no session)', ageS: '-', late: 0 };
      let gap = { ms: 0, at: 0 };
      const previous = new Map<string, number>();
      for (const { symbol, at } of arrivals) {
        const before = previous.get(symbol);
        if (before !== undefined && at - before > gap.ms) gap = { ms: at - before, at };
        previous.set(symbol, at);
      }
      const ages = arrivals.map((a) => a.ageMs).sort((a, b) => a - b);
      const late = ages.filter((ms) => ms > 2 * TICK_MS).length;
      const oldest = arrivals.reduce((a, b) => (b.ageMs > a.ageMs ? b : a));
      if (cpuProfDir) console.error(`quotes: longest gap ${Math.round(gap.ms)} ms ending ${gap.at}, oldest quote ${Math.round(oldest.ageMs)} ms arriving ${oldest.at} (epoch ms, the servers' clock)`);
      const s = (ms: number) => (ms / 1000).toFixed(2);
      const lateArrivals = arrivals.filter((a) => a.ageMs > 2 * TICK_MS).map(({ at, ageMs }) => ({ at, ageMs }));
      return { quotes: arrivals.length, maxGapS: s(gap.ms), ageS: `${s(ages[Math.floor(ages.length / 2)]!)} / ${s(ages.at(-1)!)}`, late, lateArrivals };
    },
  };
}
