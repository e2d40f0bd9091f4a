/**
 * @module cli/capacity/laws
 * A scaling law of the sweep (`breakline capacity --sweep`): a least-squares
 * line through measured points (cli/capacity/model `fitLine`) with its R² and
 * the points themselves, so an operator extrapolates from a slope and sees
 * how well the line holds; and the table the sweep prints.
 *
 * @example
 * lawOf([[100, 40], [200, 80]], 'scan time', 'stocks', 'wall ms', (b) => `${b} ms a stock`);
 * // => { what: 'scan time', x: 'stocks', y: 'wall ms', intercept: 0, slope: 0.4, perUnit: '0.4 ms a stock', r2: 1, points: [[100, 40], [200, 80]] }
 */
import { fitLine } from './model';
import { table } from './report';

export interface ScalingLaw {
  what: string;
  x: string;
  y: string;
  intercept: number;
  slope: number;
  /** The slope in words, in the unit an operator plans with. */
  perUnit: string;
  r2: number;
  points: [number, number][];
}

export interface SweepResult {
  startedAt: string;
  loadAverage: [number, number];
  laws: ScalingLaw[];
  stopped: string[];
}

/** The line through `points` (x, y), or undefined for fewer than two distinct x. */
export function lawOf(points: readonly (readonly [number, number])[], what: string, x: string, y: string, perUnit: (slope: number) => string): ScalingLaw | undefined {
  const line = fitLine(
    points.map((p) => p[0]),
    points.map((p) => p[1]),
  );
  return line && { what, x, y, intercept: line.intercept, slope: line.slope, perUnit: perUnit(line.slope), r2: line.r2, points: points.map((p) => [p[0], p[1]]) };
}

/** The sweep's table: one row a law (its line, its slope in words, R², the points as x→y). */
export function formatSweep(result: SweepResult): string {
  return [
    `breakline capacity --sweep — ${result.startedAt}, load average ${result.loadAverage[0]} → ${result.loadAverage[1]} (1 min)`,
    '',
    table(
      result.laws.map((l) => ({
        law: l.what,
        fit: `${l.y} = ${round(l.intercept)} + ${sig(l.slope)} × ${l.x}`,
        slope: l.perUnit,
        'R²': round(l.r2, 3),
        points: l.points.map(([x, y]) => `${sig(x)}→${sig(y)}`).join(' '),
      })),
    ),
    '',
    ...result.stopped.map((s) => `Stopped: ${s}`),
  ].join('\n');
}

export const round = (x: number, digits = 1) => (Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 10 ** digits) / 10 ** digits);
const sig = (x: number) => Number(x.toPrecision(3));
