import { afterAll, describe, expect, it } from 'bun:test';
import { attachStore, BarStore, seriesKey } from '../../src/store';
import type { BarSeries } from '../../src/providers/types';
import type { Timeframe } from '../../src/domain/signal';
import type { SumReply, SumRequest } from './fixtures/sum-closes.worker';
import type { TornReply } from './fixtures/torn-reads.worker';

const DAY = 86_400_000;

/** `n` daily bars whose close is `base + i` (so sums are checkable by hand). */
function series(symbol: string, n: number, base = 100, timeframe: Timeframe = 'daily'): BarSeries {
  const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
  return {
    symbol,
    timeframe,
    ts: col((i) => Date.UTC(2024, 0, 2) + i * DAY),
    open: col((i) => base + i - 0.5),
    high: col((i) => base + i + 1),
    low: col((i) => base + i - 1),
    close: col((i) => base + i),
    volume: col((i) => 1_000 + i),
    source: 'test',
  };
}

/** Σ_{i<n} (base + i) */
const closeSum = (n: number, base: number) => n * base + (n * (n - 1)) / 2;

describe('bar store put/get', () => {
  it('returns the bars it was given, oldest first, with identity and source', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 16 } });
    const input = series('AAPL', 10);
    store.put(input);
    const out = store.get('AAPL', 'daily')!;
    expect(out.symbol).toBe('AAPL');
    expect(out.timeframe).toBe('daily');
    expect(out.source).toBe('test');
    for (const column of ['ts', 'open', 'high', 'low', 'close', 'volume'] as const) {
      expect([...out[column]]).toEqual([...input[column]]);
    }
    expect(store.has('AAPL')).toBe(true);
    expect(store.has('AAPL', '1h')).toBe(false);
    expect(store.get('MSFT', 'daily')).toBeUndefined();
  });

  it('answers by a kept series key as by symbol and timeframe', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 16 } });
    store.put(series('AAPL', 4));
    expect(store.hasSeries(seriesKey('AAPL', 'daily'))).toBe(true);
    expect(store.hasSeries(seriesKey('AAPL', '1h'))).toBe(false);
    expect(store.hasSeries(seriesKey('MSFT', 'daily'))).toBe(false);
  });

  it('copies on put, so the caller may reuse its arrays', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 16 } });
    const input = series('AAPL', 4);
    store.put(input);
    input.close[0] = -1;
    expect(store.get('AAPL', 'daily')!.close[0]).toBe(100);
  });

  it('answers views over shared memory, not copies', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 16 } });
    store.put(series('AAPL', 5));
    const a = store.get('AAPL', 'daily')!;
    const b = store.get('AAPL', 'daily')!;
    expect(a.close.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(a.close.buffer).toBe(b.close.buffer);
    expect(a.close.byteOffset).toBe(b.close.byteOffset);
    a.close[2] = 42; // a write through one view is seen through the other
    expect(b.close[2]).toBe(42);
  });

  it('keeps the newest bars when a series is longer than the capacity', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 5 } });
    const input = series('SPY', 8);
    store.put(input);
    const out = store.get('SPY', 'daily')!;
    expect(out.close.length).toBe(5);
    expect([...out.close]).toEqual([103, 104, 105, 106, 107]);
    expect([...out.ts]).toEqual([...input.ts.subarray(3)]);
  });

  it('replaces a series in place on a later put and bumps its version by one write', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 8 } });
    store.put(series('SPY', 6));
    const v1 = store.get('SPY', 'daily')!.version;
    store.put(series('SPY', 3, 200));
    const out = store.get('SPY', 'daily')!;
    expect([...out.close]).toEqual([200, 201, 202]);
    expect(out.version).toBe(v1 + 2);
    expect(v1 % 2).toBe(0);
  });

  it('keeps timeframes apart and lists each symbol once', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 8, '1h': 8 } });
    store.put(series('AAPL', 3));
    store.put(series('AAPL', 4, 50, '1h'));
    store.put(series('MSFT', 2));
    expect(store.symbols()).toEqual(['AAPL', 'MSFT']);
    expect(store.get('AAPL', '1h')!.close.length).toBe(4);
    expect(store.get('AAPL', 'daily')!.close.length).toBe(3);
  });

  it('adds a segment when full and never moves a slot a reader holds', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 4 }, slotsPerSegment: 2 });
    store.put(series('A', 4, 10));
    const held = store.get('A', 'daily')!;
    for (const [k, symbol] of ['B', 'C', 'D', 'E'].entries()) store.put(series(symbol, 4, 20 + 10 * k));
    expect(store.handle().segments.length).toBe(3);
    expect(store.get('A', 'daily')!.close.buffer).toBe(held.close.buffer);
    store.put(series('A', 4, 90));
    expect([...held.close]).toEqual([90, 91, 92, 93]);
    expect([...store.get('E', 'daily')!.close]).toEqual([50, 51, 52, 53]);
  });

  it('rejects columns of different lengths and bad options', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 8 } });
    const broken = { ...series('AAPL', 4), volume: new Float64Array(3) };
    expect(() => store.put(broken)).toThrow('volume has 3 values, ts has 4');
    expect(() => new BarStore({ capacityPerSeries: { daily: 0 } })).toThrow(RangeError);
    expect(() => new BarStore({ slotsPerSegment: 1.5 })).toThrow(RangeError);
  });

  it('packs the columns of a timeframe with a longest series, and slots side by side keep their own bars', () => {
    const store = new BarStore({ longestSeries: { '4h': 37 }, slotsPerSegment: 3 });
    expect(store.capacityOf('4h')).toBe(37);
    const symbols = ['A', 'B', 'C', 'D', 'E'];
    const expected = new Map<string, BarSeries>();
    // Full slots, shorter ones, rewrites of a slot between its neighbours, a series longer than the bound (its newest 37 kept).
    for (const [round, n] of [37, 12, 37, 40, 1].entries()) {
      for (const [i, symbol] of symbols.entries()) {
        const input = series(symbol, n - (i % 2), 1_000 * (i + 1) + round * 100, '4h');
        store.put(input);
        expected.set(symbol, input);
      }
      for (const [symbol, input] of expected) {
        const out = store.get(symbol, '4h')!;
        const kept = Math.min(input.ts.length, 37);
        for (const column of ['ts', 'open', 'high', 'low', 'close', 'volume'] as const) {
          expect([...out[column]]).toEqual([...input[column].subarray(input.ts.length - kept)]);
        }
      }
    }
    const reader = attachStore(store.handle());
    expect([...reader.get('E', '4h')!.close]).toEqual([...store.get('E', '4h')!.close]);
  });

  it('read() returns a result only when no write overlapped it', () => {
    const store = new BarStore({ capacityPerSeries: { daily: 8 } });
    store.put(series('AAPL', 4));
    let calls = 0;
    const sum = store.read('AAPL', 'daily', (s) => {
      if (calls++ === 0) store.put(series('AAPL', 4, 200)); // a write lands mid-computation
      return s.close.reduce((a, b) => a + b, 0);
    });
    expect(calls).toBe(2);
    expect(sum).toBe(closeSum(4, 200));
  });
});

describe('bar store handle in a worker', () => {
  const worker = new Worker(new URL('./fixtures/sum-closes.worker.ts', import.meta.url));
  afterAll(() => worker.terminate());
  const ask = (request: SumRequest) =>
    new Promise<SumReply>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<SumReply>) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message));
      worker.postMessage(request);
    });

  const store = new BarStore({ capacityPerSeries: { daily: 4_096 } });
  store.put(series('AAPL', 2_520));

  it('attaches the handle and reads the same closes from shared memory', async () => {
    const reply = await ask({ handle: store.handle(), symbol: 'AAPL', timeframe: 'daily' });
    expect(reply.shared).toBe(true);
    expect(reply.length).toBe(2_520);
    expect(reply.sum).toBe(closeSum(2_520, 100));
    expect(reply.version).toBe(store.get('AAPL', 'daily')!.version);
    expect(reply.stale).toBe(false);
  });

  it('sees an update the main thread writes after it attached', async () => {
    store.put(series('AAPL', 3_000, 10));
    const reply = await ask({ symbol: 'AAPL', timeframe: 'daily' });
    expect(reply.length).toBe(3_000);
    expect(reply.sum).toBe(closeSum(3_000, 10));
    expect(reply.version).toBe(store.get('AAPL', 'daily')!.version);
  });

  it('writes the main thread sees, so both address the same bytes (no copy)', async () => {
    await ask({ symbol: 'AAPL', timeframe: 'daily', poke: { index: 7, value: 1e6 } });
    expect(store.get('AAPL', 'daily')!.close[7]).toBe(1e6);
  });

  it('reports its handle stale once new series are added', async () => {
    store.put(series('MSFT', 10));
    expect((await ask({ symbol: 'AAPL', timeframe: 'daily' })).stale).toBe(true);
    const fresh = await ask({ handle: store.handle(), symbol: 'MSFT', timeframe: 'daily' });
    expect(fresh.stale).toBe(false);
    expect(fresh.sum).toBe(closeSum(10, 100));
  });
});

describe('bar store revision', () => {
  it('moves on a change of any stored bar but the last, down to one bit of a value, and not on an append', () => {
    const store = new BarStore();
    store.put(series('BITS', 100));
    const revised = (edit: (s: BarSeries) => void) => {
      const next = series('BITS', 101);
      edit(next);
      store.put(next);
      return store.revision('BITS', 'daily');
    };
    expect(revised(() => {})).toBe(1); // one bar appended
    // The lowest bit of one close's low word, then the sign of a zero volume: bit for bit, not by value.
    const lowBit = new Float64Array(1);
    lowBit[0] = 150;
    new Int32Array(lowBit.buffer)[0]! ^= 1;
    expect(revised((s) => (s.close[50] = lowBit[0]!))).toBe(2);
    store.put(series('BITS', 101));
    expect(store.revision('BITS', 'daily')).toBe(3);
    const zero = series('BITS', 101);
    zero.volume[10] = 0;
    store.put(zero);
    expect(revised((s) => (s.volume[10] = -0))).toBe(5);
    expect(revised((s) => (s.volume[10] = -0))).toBe(5); // the same bits again
  });
});

describe('bar store handle', () => {
  it('is the same description while no series is added, and lists every series through its shared directory', async () => {
    const store = new BarStore();
    store.put(series('AAPL', 10));
    const first = store.handle();
    store.put(series('AAPL', 11));
    expect(store.handle()).toBe(first);
    store.put(series('MSFT', 5));
    const second = store.handle();
    expect(second).not.toBe(first);
    expect(second.directory).toBeInstanceOf(SharedArrayBuffer);
    const reader = attachStore(structuredClone(second));
    expect(reader.symbols()).toEqual(['AAPL', 'MSFT']);
    expect(reader.get('MSFT', 'daily')!.close[4]).toBe(104);
    expect(attachStore(first).has('MSFT')).toBe(false);
  });
});

describe('bar store seqlock under concurrent writes', () => {
  it('never lets read() return a half-written series', async () => {
    const store = new BarStore({ capacityPerSeries: { daily: 2_048 } });
    const template = series('SPY', 2_048);
    const closes = new Float64Array(2_048);
    const write = (k: number) => {
      const n = 1 + (k % 50) * 40;
      const cut = (a: Float64Array) => a.subarray(0, n);
      closes.fill(k, 0, n);
      store.put({ ...template, ts: cut(template.ts), open: cut(template.open), high: cut(template.high), low: cut(template.low), close: cut(closes), volume: cut(template.volume) });
    };
    write(0);
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL('./fixtures/torn-reads.worker.ts', import.meta.url));
    try {
      const started = new Promise<void>((resolve) => (worker.onmessage = () => resolve()));
      worker.postMessage({ handle: store.handle(), stop: stop.buffer });
      await started;
      const done = new Promise<TornReply>((resolve) => (worker.onmessage = (e: MessageEvent<TornReply>) => resolve(e.data)));
      for (let k = 1; k <= 20_000; k++) write(k); // the worker reads while this loop runs
      Atomics.store(stop, 0, 1);
      const reply = await done;
      expect(reply.torn).toBe(0);
      expect(reply.reads).toBeGreaterThan(0);
    } finally {
      worker.terminate();
    }
  });
});

describe('attachStore', () => {
  it('refuses a handle of another layout version', () => {
    const handle = new BarStore().handle();
    expect(() => attachStore({ ...handle, layoutVersion: 99 })).toThrow('layout 99');
  });
});
