/**
 * @module cli/capacity/widened-universe
 * A universe of any size for the scan sweep (`breakline capacity --sweep`,
 * scan time against universe size): the market-data provider it is given,
 * with its stocks repeated under other names (`AAPL.2`, `AAPL.3`, …) until
 * the universe holds `size` stocks. A copy's bars are its original's, so a
 * scan over N names does the work of N real series (every indicator and
 * detector runs over each; nothing is shared between names), which is what
 * its time grows with. The synthetic market has 531 instruments (the S&P 500
 * and the Nasdaq-100, providers/universe): past them, copies.
 *
 * @example
 * const wide = new WidenedUniverse(createSyntheticProvider(), 2000);
 * (await wide.universe()).filter((i) => i.kind === 'stock').length; // => 2000
 */
import type { BarsQuery, BarSeries, Capability, Instrument, MarketDataProvider, Snapshot } from '../../providers/types';

const COPY = /^(.+)\.(\d+)$/;

export class WidenedUniverse implements MarketDataProvider {
  readonly name: string;
  readonly capabilities: ReadonlySet<Capability>;
  readonly synthetic: boolean;
  readonly remote: boolean;
  readonly testSymbol: string;
  readonly longestSeries?: MarketDataProvider['longestSeries'];

  constructor(
    private readonly base: MarketDataProvider,
    private readonly size: number,
  ) {
    this.name = base.name;
    this.capabilities = base.capabilities;
    this.synthetic = base.synthetic;
    this.remote = base.remote;
    this.testSymbol = base.testSymbol;
    this.longestSeries = base.longestSeries;
  }

  /** The base universe, then copies of its stocks (in its order, copy 2 of each before copy 3) up to `size` stocks. */
  async universe(): Promise<Instrument[]> {
    const instruments = await this.base.universe();
    const stocks = instruments.filter((i) => i.kind === 'stock');
    if (stocks.length === 0) throw new RangeError(`${this.base.name} lists no stocks to widen`);
    const copies: Instrument[] = [];
    for (let n = stocks.length, k = 0; n < this.size; n++, k++) {
      const original = stocks[k % stocks.length]!;
      copies.push({ ...original, symbol: `${original.symbol}.${2 + Math.floor(k / stocks.length)}` });
    }
    return [...instruments, ...copies];
  }

  /** The stocks of the widened universe, the first `size`. */
  async stocks(): Promise<string[]> {
    return (await this.universe())
      .filter((i) => i.kind === 'stock')
      .slice(0, this.size)
      .map((i) => i.symbol);
  }

  async bars(query: BarsQuery): Promise<BarSeries> {
    const original = originalOf(query.symbol);
    const series = await this.base.bars({ ...query, symbol: original });
    return original === query.symbol ? series : { ...series, symbol: query.symbol };
  }

  async snapshot(query: { symbol: string; at?: number }): Promise<Snapshot> {
    const original = originalOf(query.symbol);
    const quote = await this.base.snapshot({ ...query, symbol: original });
    return original === query.symbol ? quote : { ...quote, symbol: query.symbol };
  }

  now(): number {
    return this.base.now?.() ?? Date.now();
  }

  selfCheck() {
    return this.base.selfCheck();
  }
}

/** `AAPL.3` → `AAPL`; a name that is not a copy is its own original. */
export function originalOf(symbol: string): string {
  return COPY.exec(symbol)?.[1] ?? symbol;
}
