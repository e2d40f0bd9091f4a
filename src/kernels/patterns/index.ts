/**
 * @module kernels/patterns
 * The registry of chart-pattern detectors, one per `PatternType` (DESIGN §4),
 * in the order a scan runs them. Adding a detector is a file beside this one
 * and a line here.
 */
import { ascendingTriangle } from './ascending-triangle';
import { bearFlag } from './bear-flag';
import { bullFlag } from './bull-flag';
import { cupWithHandle } from './cup-with-handle';
import { descendingTriangle } from './descending-triangle';
import { donchian55 } from './donchian-55';
import { doubleBottom } from './double-bottom';
import { flatBase } from './flat-base';
import { gapAndGo } from './gap-and-go';
import { highTightFlag } from './high-tight-flag';
import { newHigh52w } from './new-high-52w';
import { rangeBreakdown } from './range-breakdown';
import { rangeBreakout } from './range-breakout';
import type { PatternDetector } from './types';
import type { PatternType } from '../../domain/signal';
import { vcp } from './vcp';

export * from './types';

export const DETECTORS: Readonly<Record<PatternType, PatternDetector>> = {
  flat_base: flatBase,
  cup_with_handle: cupWithHandle,
  double_bottom: doubleBottom,
  vcp,
  bull_flag: bullFlag,
  high_tight_flag: highTightFlag,
  ascending_triangle: ascendingTriangle,
  bear_flag: bearFlag,
  descending_triangle: descendingTriangle,
  range_breakout: rangeBreakout,
  range_breakdown: rangeBreakdown,
  donchian_55: donchian55,
  new_high_52w: newHigh52w,
  gap_and_go: gapAndGo,
};

export const DETECTOR_LIST: readonly PatternDetector[] = Object.values(DETECTORS);
