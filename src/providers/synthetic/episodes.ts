/**
 * @module providers/synthetic/episodes
 * Steers one symbol's daily path through injected chart patterns, day by day,
 * inside the path generator. An episode starts at random (a hazard that
 * depends on the market regime: bases form in bull markets, bear flags in
 * weak ones), follows a plan from `patterns.ts`, and ends in a breakout on
 * expanded volume (about 60 %) or a failure: a weak poke through the pivot
 * that falls back through the pattern.
 *
 * Steering blends into the random walk rather than drawing on top of it. On
 * each steered day the return is the target path's own step, plus a pull of
 * part of the gap between the target and the actual close (a mean-reverting
 * error, as in an Ornstein–Uhlenbeck bridge), plus the symbol's full factor
 * return (market and sector, so it still co-moves with its peers), plus a
 * damped share of its idiosyncratic shock. The pattern's geometry is read
 * back from the bars that actually formed: the pivot is the realised high of
 * the pivot window (low for shorts), not the template's.
 */
import { allSessions } from './earnings';
import { planPattern, type PatternPlan, type PatternType } from './patterns';
import type { PatternRecord } from './records';
import type { Rng } from './rng';

/** Steering of one day's return, or `null` from `steer` when the path runs free. */
export interface Steering {
  ret: number;
  volume: number;
  /** Scale of an earnings jump on this day (small inside a base). */
  jumpScale: number;
  /** Scale of the day's overnight noise and wicks: a base trades quietly. */
  noise: number;
}

/** Per-day hazard of a new episode by regime: [long, short]. */
const HAZARD: ReadonlyArray<readonly [number, number]> = [
  [0.0012, 0.0001],
  [0.0006, 0.0006],
  [0.0001, 0.0012],
];
const LONG_WEIGHTS: ReadonlyArray<readonly [PatternType, number]> = [
  ['flat_base', 0.22],
  ['cup_with_handle', 0.18],
  ['vcp', 0.2],
  ['bull_flag', 0.22],
  ['ascending_triangle', 0.18],
];
const SHORT_WEIGHTS: ReadonlyArray<readonly [PatternType, number]> = [
  ['bear_flag', 0.55],
  ['descending_triangle', 0.45],
];
export const BREAKOUT_SHARE = 0.6;
/** Sessions after an episode before another may start. */
const QUIET = 40;
const MIN_HISTORY = 30;
const VOLUME_WINDOW = 50;
const PULL = { prior: 0.15, pattern: 0.3, failure: 0.4 } as const;
const IDIO = { prior: 0.85, pattern: 0.55, failure: 0.6 } as const;
/** Share of the factor return kept inside the pattern proper: a stock in a base shows relative strength. */
const FACTOR_IN_PATTERN = 0.6;

type Phase = 'form' | 'trigger' | 'follow' | 'fail';

interface Episode {
  plan: PatternPlan;
  record: PatternRecord;
  sign: 1 | -1;
  breakout: boolean;
  anchor: number;
  /** Session index of step 1. */
  t0: number;
  phase: Phase;
  highs: number[];
  lows: number[];
  daysLeft: number;
  failFrom: number;
  failTarget: number;
  failLength: number;
  failStep: number;
}

export class PatternInjector {
  readonly records: PatternRecord[] = [];
  private episode: Episode | null = null;
  private quietUntil = MIN_HISTORY;
  private readonly volumes = new Float64Array(VOLUME_WINDOW);
  private volumeSum = 0;
  private observed = 0;

  constructor(
    private readonly symbol: string,
    private readonly regime: Uint8Array,
    private readonly rng: Rng,
  ) {}

  /**
   * The steered return of session `t`, or `null` to let the path run free.
   * `natural` is the unsteered return; `factor` its market-and-sector part and
   * `idio` its idiosyncratic shock; `sigma` the day's total volatility.
   */
  steer(t: number, prevLogClose: number, natural: number, factor: number, idio: number, sigma: number): Steering | null {
    const u = this.rng.uniform();
    let ep = this.episode;
    if (!ep) {
      if (t < this.quietUntil) return null;
      ep = this.maybeStart(t, u, prevLogClose);
      if (!ep) return null;
    }
    const { plan, sign } = ep;
    switch (ep.phase) {
      case 'form': {
        const k = t - ep.t0 + 1;
        const inPattern = k > plan.patternStart;
        const pull = inPattern ? PULL.pattern : PULL.prior;
        const gap = ep.anchor + plan.path[k - 1]! - prevLogClose;
        let ret =
          plan.path[k]! - plan.path[k - 1]! + pull * gap + (inPattern ? FACTOR_IN_PATTERN : 1) * factor + (inPattern ? IDIO.pattern : IDIO.prior) * idio;
        if (inPattern) ret = this.keepInside(ep, k, prevLogClose, ret);
        return { ret, volume: plan.volume[k]!, jumpScale: inPattern ? 0 : 0.25, noise: inPattern ? 0.65 : 0.9 };
      }
      case 'trigger': {
        const pivot = ep.record.pivot!;
        const beyond = ep.breakout ? this.rng.range(0.01, 0.035) : this.rng.range(0.002, 0.012);
        const ret = Math.log(pivot * (1 + sign * beyond)) - prevLogClose;
        return { ret, volume: ep.breakout ? this.rng.range(1.2, 1.9) : this.rng.range(0.8, 1.1), jumpScale: 0, noise: 1 };
      }
      case 'follow':
        return { ret: natural + sign * 0.5 * sigma, volume: 1.1 + 0.1 * ep.daysLeft, jumpScale: 1, noise: 1 };
      case 'fail': {
        ep.failStep++;
        const f = (s: number) => ep.failFrom + ((ep.failTarget - ep.failFrom) * Math.min(s, ep.failLength)) / ep.failLength;
        let ret = f(ep.failStep) - f(ep.failStep - 1) + PULL.failure * (f(ep.failStep - 1) - prevLogClose) + factor + IDIO.failure * idio;
        if (ep.failStep >= ep.failLength) {
          // The last failing day closes through the invalidation level for certain.
          const through = Math.log(ep.record.invalidation! * (1 - sign * 0.01)) - prevLogClose;
          ret = sign > 0 ? Math.min(ret, through) : Math.max(ret, through);
        }
        return { ret, volume: 1.3, jumpScale: 0, noise: 0.8 };
      }
    }
  }

  /**
   * Reflects a close that would cross the pattern's extreme so far (its
   * highest high for a long) or sink deeper than `maxDepth` below it back
   * inside, so the pattern neither triggers early nor loses its shape.
   */
  private keepInside(ep: Episode, k: number, prevLogClose: number, ret: number): number {
    const { sign, plan } = ep;
    const highs = ep.highs.slice(plan.patternStart - 1);
    const lows = ep.lows.slice(plan.patternStart - 1);
    const extreme = Math.log(sign > 0 ? Math.max(...highs) : Math.min(...lows));
    // Distance of the close inside the extreme, d = sign × (log extreme − log close), kept in [0.3 %, deepest].
    const shallowest = 0.003;
    let deepest = sign > 0 ? -Math.log1p(-plan.maxDepth) : Math.log1p(plan.maxDepth);
    if (plan.upperHalfFrom > 0 && k >= plan.upperHalfFrom) {
      // Stay 1.5 % clear of the midpoint of the range so far (a handle must form in the upper half).
      const mid = (Math.max(...highs) + Math.min(...lows)) / 2;
      deepest = Math.max(shallowest, Math.min(deepest, sign * (extreme - Math.log(mid)) - 0.015));
    }
    if (plan.touches.includes(k)) deepest = Math.min(deepest, 0.012);
    let d = sign * (extreme - prevLogClose - ret);
    if (d < shallowest) d = Math.min(deepest, 2 * shallowest - d);
    else if (d > deepest) d = Math.max(shallowest, 2 * deepest - d);
    return extreme - sign * d - prevLogClose;
  }

  /** Feeds back the bar session `t` produced. */
  observe(t: number, high: number, low: number, close: number, volume: number): void {
    const meanVolume = this.observed >= VOLUME_WINDOW ? this.volumeSum / VOLUME_WINDOW : NaN;
    this.track(volume);
    const ep = this.episode;
    if (!ep) return;
    const date = allSessions()[t]!;
    const { record, plan, sign } = ep;
    switch (ep.phase) {
      case 'form': {
        const k = t - ep.t0 + 1;
        ep.highs.push(high);
        ep.lows.push(low);
        if (k === Math.max(1, plan.patternStart)) record.priorMove = round4(close / Math.exp(ep.anchor) - 1);
        if (k === plan.path.length - 1) this.closeForming(ep);
        return;
      }
      case 'trigger':
        record.triggerDate = date;
        record.triggerVolumeRatio = Number.isNaN(meanVolume) ? null : Math.round((volume / meanVolume) * 100) / 100;
        if (ep.breakout) {
          record.outcome = 'breakout';
          record.outcomeDate = date;
          ep.phase = 'follow';
          ep.daysLeft = this.rng.int(3, 8);
        } else {
          ep.phase = 'fail';
          ep.failFrom = Math.log(close);
          ep.failTarget = Math.log(record.invalidation! * (1 - sign * this.rng.range(0.02, 0.05)));
          ep.failLength = this.rng.int(4, 9);
          ep.failStep = 0;
        }
        return;
      case 'follow':
        if (--ep.daysLeft <= 0) this.finish(t);
        return;
      case 'fail':
        if (sign * (close - record.invalidation!) < 0) {
          record.outcome = 'failure';
          record.outcomeDate = date;
          this.finish(t);
        }
        return;
    }
  }

  private maybeStart(t: number, u: number, prevLogClose: number): Episode | null {
    const [longHazard, shortHazard] = HAZARD[this.regime[t]!]!;
    if (u >= longHazard + shortHazard) return null;
    const weights = u < longHazard ? LONG_WEIGHTS : SHORT_WEIGHTS;
    const pattern = pick(weights, this.rng.uniform());
    const plan = planPattern(pattern, this.rng);
    const sessions = allSessions();
    const record: PatternRecord = {
      symbol: this.symbol,
      pattern,
      direction: plan.direction,
      trendStart: sessions[t]!,
      start: sessions[t + Math.max(0, plan.patternStart - 1)]!,
      end: sessions[t + plan.path.length - 2]!,
      pivot: null,
      pivotDate: null,
      invalidation: null,
      baseHigh: null,
      baseLow: null,
      depth: null,
      priorMove: null,
      contractions: plan.contractions,
      outcome: 'pending',
      triggerDate: null,
      outcomeDate: null,
      triggerVolumeRatio: null,
    };
    this.records.push(record);
    this.episode = {
      plan,
      record,
      sign: plan.direction === 'long' ? 1 : -1,
      breakout: this.rng.uniform() < BREAKOUT_SHARE,
      anchor: prevLogClose,
      t0: t,
      phase: 'form',
      highs: [],
      lows: [],
      daysLeft: 0,
      failFrom: 0,
      failTarget: 0,
      failLength: 0,
      failStep: 0,
    };
    return this.episode;
  }

  /** Reads the pattern's geometry back from the bars that formed (highs[i] is step i + 1). */
  private closeForming(ep: Episode): void {
    const { plan, record, sign, highs, lows } = ep;
    const window = (from: number) => ({ hi: Math.max(...highs.slice(Math.max(0, from - 1))), lo: Math.min(...lows.slice(Math.max(0, from - 1))) });
    const base = window(plan.patternStart);
    const pivotWindow = window(plan.pivotFrom);
    const invalidationWindow = window(plan.invalidationFrom);
    record.baseHigh = base.hi;
    record.baseLow = base.lo;
    record.depth = round4((base.hi - base.lo) / base.hi);
    record.pivot = sign > 0 ? pivotWindow.hi : pivotWindow.lo;
    const pivotStep = (sign > 0 ? highs : lows).lastIndexOf(record.pivot);
    record.pivotDate = allSessions()[ep.t0 + pivotStep]!;
    record.invalidation = sign > 0 ? invalidationWindow.lo : invalidationWindow.hi;
    ep.phase = 'trigger';
  }

  private finish(t: number): void {
    this.episode = null;
    this.quietUntil = t + QUIET;
  }

  private track(volume: number): void {
    const slot = this.observed % VOLUME_WINDOW;
    this.volumeSum += volume - this.volumes[slot]!;
    this.volumes[slot] = volume;
    this.observed++;
  }
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

function pick(weights: ReadonlyArray<readonly [PatternType, number]>, u: number): PatternType {
  const total = weights.reduce((s, w) => s + w[1], 0);
  let acc = 0;
  for (const [type, w] of weights) {
    acc += w / total;
    if (u < acc) return type;
  }
  return weights[weights.length - 1]![0];
}
