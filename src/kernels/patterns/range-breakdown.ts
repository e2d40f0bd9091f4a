/**
 * @module kernels/patterns/range-breakdown
 * `range_breakdown` (range, short): a horizontal range of at least 20 bars
 * (4 weeks of daily bars), at most 5 ATRs and 15% tall, that price crossed at
 * least twice between its top and bottom quarters, broken by a close below
 * its bottom on at least 1.5× the 50-bar average volume. target1 = bottom −
 * height; stop = the range's midpoint.
 *
 * Definition: Thomas N. Bulkowski, "Encyclopedia of Chart Patterns", 2nd ed.
 * (Wiley, 2005), chapters "Rectangle Tops"/"Rectangle Bottoms" (downward
 * breakouts; measure rule = height subtracted from the breakout). The
 * geometry, parameters and instance choice are in `range-geometry.ts`.
 *
 * @example
 * const match = rangeBreakdown.detect({ bars, ind: computeIndicators(bars), asOf });
 * match?.reasons[3]; // => "closed below the 48.10 bottom on volume 2.3× the 50-bar average"
 */
import { rangeDetector } from './range-geometry';
import type { PatternDetector } from './types';

export const rangeBreakdown: PatternDetector = rangeDetector('range_breakdown', 'short');
