/**
 * @module providers/synthetic/daily-worker
 * A worker thread of `SyntheticProvider.prepareDaily`: builds the world of a
 * New York day and simulates the daily paths of the symbols it is given, each
 * posted back as soon as it is drawn (its columns transferred, not copied).
 * The same functions as on the main thread, so the same bars.
 *
 * In: `{ seed, day, symbols }`. Out: `{ symbol, daily }` per symbol, then `{ done: true }`.
 */
import { loadInstruments } from '../universe';
import { buildWorld } from './market';
import { simulateDaily } from './paths';
import { symbolProfile } from './profile';

declare const self: Worker;

export interface DailyRequest {
  seed: number;
  day: string;
  symbols: string[];
}

self.onmessage = ({ data }: MessageEvent<DailyRequest>) => {
  const { seed, day, symbols } = data;
  const world = buildWorld(seed, day);
  const instruments = new Map(loadInstruments().map((i) => [i.symbol, i]));
  for (const symbol of symbols) {
    const instrument = instruments.get(symbol);
    if (!instrument) continue;
    const daily = simulateDaily(world, symbolProfile(seed, instrument));
    const { open, high, low, close, volume, sigma } = daily;
    self.postMessage({ symbol, daily }, [open.buffer, high.buffer, low.buffer, close.buffer, volume.buffer, sigma.buffer]);
  }
  self.postMessage({ done: true });
};
