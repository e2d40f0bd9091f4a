/**
 * @module kernels/patterns/ascending-triangle
 * `ascending_triangle` (continuation, long): a flat top touched at least twice
 * within 0.6 ATR, at least two rising minor lows under it, 15–120 bars (3 weeks
 * to 6 months of daily bars); it triggers on a close above the highest touch.
 * target1 = pivot + height (highest high − lowest low); stop = the last
 * higher low.
 *
 * Definition: Thomas N. Bulkowski, "Encyclopedia of Chart Patterns", 2nd ed.
 * (Wiley, 2005), chapter "Triangles, Ascending" (identification guidelines and
 * measure rule). The geometry, parameters and instance choice are in
 * `triangle-geometry.ts`.
 *
 * @example
 * const match = ascendingTriangle.detect({ bars, ind: computeIndicators(bars), asOf });
 * match?.reasons[0]; // => "3 touches of 52.40 resistance (spread 0.31)"
 */
import { triangleDetector } from './triangle-geometry';
import type { PatternDetector } from './types';

export const ascendingTriangle: PatternDetector = triangleDetector('ascending_triangle', 'long');
