/**
 * A cold symbol's daily path drawn in a worker thread (issue 27): after a
 * restart the boot pass draws only the scan's universe, and a sector fund
 * asked for later (/api/sector-rotation) was drawn on the event loop.
 */
import { afterEach, describe, expect, it, spyOn } from 'bun:test';
import * as paths from '../../../src/providers/synthetic/paths';
import type { BarSeries } from '../../../src/providers/types';
import { provider } from './fixtures';

const columns = (s: BarSeries) => [s.ts, s.open, s.high, s.low, s.close, s.volume].map((a) => Array.from(a));

describe('cold symbols drawn in a worker thread (drawColdInWorker)', () => {
  const opened: { close(): void }[] = [];
  afterEach(() => {
    for (const p of opened.splice(0)) p.close();
  });

  it('draws a cold fund off the calling thread, the same bars and quote as drawn on demand', async () => {
    const inWorker = provider(42);
    inWorker.drawColdInWorker();
    opened.push(inWorker);
    const onDemand = provider(42);
    const simulated = spyOn(paths, 'simulateDaily');
    try {
      const [xlk, xle] = await Promise.all([inWorker.bars({ symbol: 'XLK', timeframe: 'daily' }), inWorker.bars({ symbol: 'xle', timeframe: 'daily' })]);
      const quote = await inWorker.snapshot({ symbol: 'XLU' });
      // This thread simulated no path: the kept worker thread drew all three (its own copy of the module).
      expect(simulated).toHaveBeenCalledTimes(0);
      expect(columns(xlk)).toEqual(columns(await onDemand.bars({ symbol: 'XLK', timeframe: 'daily' })));
      expect(columns(xle)).toEqual(columns(await onDemand.bars({ symbol: 'XLE', timeframe: 'daily' })));
      expect(quote).toEqual(await onDemand.snapshot({ symbol: 'XLU' }));
      expect(simulated).toHaveBeenCalledTimes(3); // the provider drawing on demand did, once a symbol
    } finally {
      simulated.mockRestore();
    }
  });

  it('refuses an unknown symbol as before, and starts another kept thread after the first is closed', async () => {
    const p = provider(42);
    p.drawColdInWorker();
    opened.push(p);
    await expect(p.bars({ symbol: 'NOPE', timeframe: 'daily' })).rejects.toMatchObject({ code: 'unknown_symbol' });
    const bars = await p.bars({ symbol: 'XLV', timeframe: 'daily' });
    p.close(); // the kept thread ends; the next cold draw starts another (same bars)
    expect(columns(await p.bars({ symbol: 'XLB', timeframe: 'daily' }))).toEqual(columns(await provider(42).bars({ symbol: 'XLB', timeframe: 'daily' })));
    expect(bars.ts.length).toBeGreaterThan(1_000);
  });
});
