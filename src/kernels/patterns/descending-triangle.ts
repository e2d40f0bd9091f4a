/**
 * @module kernels/patterns/descending-triangle
 * `descending_triangle` (continuation, short): a flat bottom touched at least
 * twice within 0.6 ATR, at least two falling minor highs above it, 15–120 bars
 * (3 weeks to 6 months of daily bars); it triggers on a close below the
 * lowest touch. target1 = pivot − height; stop = the last lower high.
 *
 * Definition: Thomas N. Bulkowski, "Encyclopedia of Chart Patterns", 2nd ed.
 * (Wiley, 2005), chapter "Triangles, Descending" (identification guidelines and
 * measure rule). The geometry, parameters and instance choice are in
 * `triangle-geometry.ts`, shared with `ascending_triangle` on negated prices.
 *
 * @example
 * const match = descendingTriangle.detect({ bars, ind: computeIndicators(bars), asOf });
 * match?.reasons[0]; // => "3 touches of 41.10 support (spread 0.22)"
 */
import { triangleDetector } from './triangle-geometry';
import type { PatternDetector } from './types';

export const descendingTriangle: PatternDetector = triangleDetector('descending_triangle', 'short');
