/**
 * @module providers/live/vendor-provider
 * What the keyed market-data vendors with a live stream (Alpaca, Polygon)
 * have in common as providers: bars and snapshots over the network, the
 * bundled universe (providers/universe), and a health check that asks the
 * test symbol's quote over REST and then reads the stream's state
 * (./health). Each vendor's folder says how it asks for bars and quotes.
 */
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

  protected constructor(clock: (() => number) | undefined) {
    this.clock = clock ?? Date.now;
  }

  async universe(): Promise<Instrument[]> {
    return loadInstruments();
  }

  abstract bars(query: BarsQuery): Promise<BarSeries>;
  abstract snapshot(query: { symbol: string }): Promise<Snapshot>;

  async selfCheck(): Promise<SelfCheck> {
    const rest = await quoteSelfCheck(this.name, this.testSymbol, () => this.snapshot({ symbol: this.testSymbol }));
    return withStream(rest, this.live?.status());
  }
}
