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

/**
 * Formatters made once: `toLocaleString(locale, options)` builds an Intl formatter on every call, a cost each row
 * of a table paid again (MDN, Number.prototype.toLocaleString: "use Intl.NumberFormat … and reuse it").
 */
const COUNT = new Intl.NumberFormat('en-US');
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export const count = (value: number | null | undefined): string => (value === null || value === undefined ? '—' : COUNT.format(value));

/** A time as `formatter` writes it; '—' for none or one that is not a time (where `format` would throw). */
function when(iso: string | null | undefined, formatter: Intl.DateTimeFormat): string {
  const at = iso ? new Date(iso) : undefined;
  return at && Number.isFinite(at.getTime()) ? formatter.format(at) : '—';
}

export const dateTime = (iso: string | null | undefined): string => when(iso, DATE_TIME);

export const date = (iso: string | null | undefined): string => when(iso, DATE);

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
