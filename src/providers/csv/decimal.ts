/**
 * @module providers/csv/decimal
 * Reads a decimal number straight out of a line, without cutting a substring
 * for it first. Uses Clinger's exact fast path (W. D. Clinger, "How to Read
 * Floating Point Numbers Accurately", PLDI 1990): when the digits form an
 * integer m < 2^53 and there are k ≤ 22 fraction digits, m and 10^k are both
 * exact doubles, so the single correctly rounded division m / 10^k is the
 * correctly rounded value of the text, i.e. the same double `Number()` returns.
 * Anything else (more digits, exponents, `NaN`, blanks) falls back to `Number()`.
 *
 * @example
 * decimalIn('2023-06-30,193.970001,100', 11, 21); // => 193.970001
 */

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
const MAX_EXACT = 2 ** 53;

/**
 * The number written in `s[from, to)`; NaN when that range is empty or not a
 * number (an empty cell is "no value", not 0 as `Number('')` would say).
 */
export function decimalIn(s: string, from: number, to: number): number {
  if (from >= to) return NaN;
  let i = from;
  const negative = s.charCodeAt(i) === 45; // '-'
  if (negative) i++;
  const digitsFrom = i;
  let mantissa = 0;
  let point = -1;
  for (; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 && point < 0) { // '.'
      point = i;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9) return slow(s, from, to);
    mantissa = mantissa * 10 + d;
  }
  const fractionDigits = point < 0 ? 0 : to - point - 1;
  if (to - digitsFrom === (point < 0 ? 0 : 1) || mantissa >= MAX_EXACT || fractionDigits > 22) return slow(s, from, to);
  const value = mantissa / POW10[fractionDigits]!;
  return negative ? -value : value;
}

function slow(s: string, from: number, to: number): number {
  const value = +s.slice(from, to);
  return value === 0 && s.slice(from, to).trim() === '' ? NaN : value;
}
