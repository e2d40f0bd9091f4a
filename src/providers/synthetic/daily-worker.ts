/**
 * @module providers/synthetic/daily-worker
 * A worker thread of `SyntheticProvider.prepareDaily` / `prepareIntraday`:
 * builds the world of a New York day and simulates the daily paths of the
 * symbols it is given (with `window`, also their 1h and 4h bars of the
 * complete sessions `window.first..window.last`), each symbol posted back as
 * soon as it is drawn, its columns transferred, not copied. The same
 * functions as on the main thread, so the same bars.
 *
 * In: a `DrawRequest`. Out: a `DrawnSymbol` per symbol, then `{ done: true }`.
 * A thread kept for draws on demand (./draws) is sent one request after
 * another: the day's world is built once for all of them.
 */
import type { Ohlcv } from '../../kernels/ohlcv';
import { loadInstruments } from '../universe';
import { drawIntraday, scratchGrid } from './intraday';
import { buildWorld, type World } from './market';
import { drawnSessions, HeldPath, type HeldPathParts } from './held-path';
import { simulateDaily } from './paths';
import { symbolProfile } from './profile';

declare const self: Worker;

export interface DrawRequest {
  seed: number;
  day: string;
  symbols: string[];
  /** Sessions of the 1h and 4h bars to draw too. */
  window?: { first: number; last: number };
}

export interface DrawnSymbol {
  symbol: string;
  /** The daily path in the form the provider holds it (held-path.ts). */
  daily: HeldPathParts;
  intraday?: { hour: Ohlcv; hourLength: number; block: Ohlcv; blockLength: number };
}

const buffersOf = (columns: object) =>
  Object.values(columns).flatMap((c) => (c instanceof Float64Array || c instanceof Int32Array || c instanceof Uint32Array ? [c.buffer as ArrayBuffer] : []));

/** The world of the last request's seed and day, kept for the next (the same unless the day moved). */
let held: { seed: number; day: string; world: World } | undefined;

self.onmessage = ({ data }: MessageEvent<DrawRequest>) => {
  const { seed, day, symbols, window } = data;
  if (held?.seed !== seed || held.day !== day) held = { seed, day, world: buildWorld(seed, day) };
  const { world } = held;
  const instruments = new Map(loadInstruments().map((i) => [i.symbol, i]));
  const grid = scratchGrid();
  for (const symbol of symbols) {
    const instrument = instruments.get(symbol);
    if (!instrument) continue;
    const profile = symbolProfile(seed, instrument);
    const path = simulateDaily(world, profile);
    const daily = HeldPath.partsOf(path);
    const drawn: DrawnSymbol = { symbol, daily };
    const transfer = [...buffersOf(daily), ...buffersOf(daily.drawn ?? {})];
    if (window) {
      const { hour, block } = drawIntraday(profile.seed, world.openTs, world.closeTs, drawnSessions(path), window.first, window.last, grid);
      drawn.intraday = { hour: hour.buffers, hourLength: hour.length, block: block.buffers, blockLength: block.length };
      transfer.push(...buffersOf(hour.buffers), ...buffersOf(block.buffers));
    }
    self.postMessage(drawn, transfer);
  }
  self.postMessage({ done: true });
};
