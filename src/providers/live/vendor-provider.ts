/**
 * @module providers/live/vendor-provider
 * What the keyed market-data vendors with a live stream (Alpaca, Polygon)
 * have in common as providers: bars and snapshots over the network, the
 * bundled universe (providers/universe), and a health check that asks the
 * test symbol's quote over REST and then reads the stream's state
 * (./health). Each vendor's folder says how it asks for bars and quotes.
 *
 * A snapshot comes from the live stream when it has the symbol's session
 * (its forming daily bar, the latest trade or minute: ./latest) and the
 * previous close is known for that session from one REST snapshot of the
 * day: then /api/snapshot and the hub's first quotes cost no request. Open,
 * high, low and volume are then the regular session's (or the extended
 * one's with `LIVE_EXTENDED_HOURS`), as the roll-up's daily bar is.
 */
import { sessionAt } from '../calendar';
import { newYorkDate } from '../new-york-time';
import { quoteSelfCheck } from '../self-check';
import { loadInstruments } from '../universe';
import type { BarSeries, BarsQuery, Capability, Instrument, MarketDataProvider, SelfCheck, Snapshot } from '../types';
import { withStream } from './health';
import type { LiveFeed } from './types';

export abstract class VendorProvider implements MarketDataProvider {
  abstract readonly name: string;
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>(['bars', 'snapshot']);
  readonly synthetic = false;
  readonly remote = true;
  readonly testSymbol = 'SPY';
  /** The vendor's stream, when configured (started by the server). */
  live?: LiveFeed;
  protected readonly clock: () => number;
  /** Each symbol's previous close, for the session (New York date) a REST snapshot was of. */
  private readonly previousCloses = new Map<string, { date: string; close: number }>();

  protected constructor(clock: (() => number) | undefined) {
    this.clock = clock ?? Date.now;
  }

  async universe(): Promise<Instrument[]> {
    return loadInstruments();
  }

  abstract bars(query: BarsQuery): Promise<BarSeries>;
  /** The vendor's snapshot over REST. */
  protected abstract restSnapshot(symbol: string): Promise<Snapshot>;

  async snapshot({ symbol }: { symbol: string }): Promise<Snapshot> {
    const now = this.clock();
    const day = this.live?.latest(symbol, now);
    const previous = this.previousCloses.get(symbol);
    if (day && previous?.date === day.date) {
      const change = day.price - previous.close;
      return {
        symbol,
        price: day.price,
        volume: day.volume,
        open: day.open,
        dayHigh: Math.max(day.high, day.price),
        dayLow: Math.min(day.low, day.price),
        previousClose: previous.close,
        change,
        changePercent: previous.close ? (change / previous.close) * 100 : 0,
        ts: new Date(day.ts).toISOString(),
        marketOpen: sessionAt(now) !== null,
        source: this.name,
      };
    }
    const quote = await this.restSnapshot(symbol);
    if (this.previousCloses.size >= 100_000) this.previousCloses.clear(); // bounded: the universe and what clients ask
    this.previousCloses.set(symbol, { date: newYorkDate(Date.parse(quote.ts)), close: quote.previousClose });
    return quote;
  }

  async selfCheck(): Promise<SelfCheck> {
    // The vendor's REST API itself, not the stream's view of it.
    const rest = await quoteSelfCheck(this.name, this.testSymbol, () => this.restSnapshot(this.testSymbol));
    return withStream(rest, this.live?.status());
  }
}
