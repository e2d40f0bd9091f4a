/**
 * @module console/app/format
 * Numbers and times as the console writes them: prices to two decimals,
 * percentages, R-multiples, dates in the reader's locale.
 */

export const price = (value: number | null | undefined): string => (value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(2));

export const percent = (value: number | null | undefined, digits = 1): string => (value === null || value === undefined ? '—' : `${(value * 100).toFixed(digits)}%`);

/** A number that is already in percent (`distancePct`). */
export const pct = (value: number | null | undefined, digits = 1): string => (value === null || value === undefined ? '—' : `${value.toFixed(digits)}%`);

export const r = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : `${value >= 0 ? '+' : ''}${value.toFixed(2)}R`);

export const count = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : value.toLocaleString('en-US'));

export const dateTime = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—');

export const date = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—');

/** `range_breakout` → `range breakout`. */
export const words = (name: string): string => name.replaceAll('_', ' ');

/** Signed % distance of `price` from `trigger` in the direction of the trade (positive: beyond the trigger). */
export function distanceToTrigger(priceNow: number, trigger: number, direction: 'long' | 'short'): number {
  const raw = ((priceNow - trigger) / trigger) * 100;
  return direction === 'long' ? raw : -raw;
}

/** ` (lower–upper)` of a 95% interval, or '' when it has no bounds (too few trades). */
export const interval = (lower: number | null | undefined, upper: number | null | undefined, format: (v: number) => string): string =>
  lower === null || lower === undefined || upper === null || upper === undefined ? '' : ` (${format(lower)}–${format(upper)})`;
