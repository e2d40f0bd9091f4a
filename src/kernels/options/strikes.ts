/**
 * @module kernels/options/strikes
 * The strike grid of US equity options: listed strikes sit at multiples of an
 * increment that widens with the price. Our rule approximates the common
 * listings (Cboe's strike-price interval programmes: $0.50/$1 strikes for low
 * prices, $2.50 up to $200, $5 and then $10 above):
 *
 * | underlying price | increment |
 * |---|---|
 * | < 25 | 0.5 |
 * | 25 – < 50 | 1 |
 * | 50 – < 200 | 2.5 |
 * | 200 – < 500 | 5 |
 * | ≥ 500 | 10 |
 *
 * @example
 * strikeIncrement(187.3); // => 2.5
 * nearestStrike(187.3, 187.3); // => 187.5
 */
export function strikeIncrement(price: number): number {
  if (!(price > 0)) throw new RangeError(`strikeIncrement: price must be positive, got ${price}`);
  return price < 25 ? 0.5 : price < 50 ? 1 : price < 200 ? 2.5 : price < 500 ? 5 : 10;
}

/** The listed strike nearest `level` on the grid of an underlying at `price`. */
export function nearestStrike(level: number, price: number): number {
  const step = strikeIncrement(price);
  return Math.max(step, Math.round(level / step) * step);
}

/** Listed strikes from `low` to `high` (inclusive, on the grid of `price`), ascending. */
export function strikeGrid(low: number, high: number, price: number): number[] {
  const step = strikeIncrement(price);
  const out: number[] = [];
  for (let k = Math.max(1, Math.ceil(low / step)); k * step <= high + 1e-9; k++) out.push(Math.round(k * step * 100) / 100);
  return out;
}
