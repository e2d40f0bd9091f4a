/**
 * @module ai/grounding
 * The grounding check: every number a bullet states must match a number in
 * the facts the model was given, within the rounding the bullet shows.
 *
 * - A **number** in a bullet is any run of digits, with an optional decimal
 *   part and thousands commas (`1,234.5`), read with its unit when one follows:
 *   `%`/`percent`, `k`/`thousand`, `M`/`mn`/`million`, `B`/`bn`/`billion`
 *   (scales), `x`/`×`/`R` (no scale). Digits inside words count too (`Q3`,
 *   `50-day`). Signs are ignored (a fall of 5% states 5). ISO dates
 *   (`2026-11-20`) are one number: they must equal a date in the facts.
 * - A **fact number** is any finite number in the facts, or a digit run inside
 *   any fact text (a reason, a date, `new_high_52w`).
 * - A bullet number **matches** a fact when the fact rounds to it at the
 *   bullet's precision: |fact − stated × scale| ≤ ½ × 10^−decimals × scale
 *   (`182` matches 182.4; `182.4` does not match 182.46). Two unit
 *   conversions are allowed: a percentage matches a ratio fact × 100 (`58%`
 *   matches 0.583), and a scaled number matches a fact already in that unit
 *   (`$25.3M` matches `avgDollarVolumeMillions: 25.3`).
 *
 * What it cannot see: numbers spelled in words ("three contractions") and
 * claims without numbers. The system prompt asks for digits.
 *
 * @example
 * groundBullets(['Trigger at $182.40, 4.1% below.'], { levels: { trigger: 182.4, riskPct: 4.12 } });
 * // => { failures: [], grounding: [{ bullet: 0, citations: [{ text: '$182.40', fact: 'levels.trigger', value: 182.4 }, …] }] }
 */
import type { BulletGrounding } from '../domain/explanation';

/** A number a bullet states. */
export interface Mention {
  /** As written, with its currency sign and unit, e.g. `$25.3M`. */
  text: string;
  value: number;
  decimals: number;
  scale: number;
  percent: boolean;
  /** Set for an ISO date mention (`YYYY-MM-DD`). */
  date?: string;
}

/** A number in the facts, with where it came from. */
interface FactNumber {
  path: string;
  value: number;
  /** The fact's text when the number was read from one. */
  text: string | null;
}

const DATE = /\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/g;
const NUMBER = /(\$)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s?(%|percent\b|k\b|thousand\b|M\b|mn\b|million\b|B\b|bn\b|billion\b|x\b|×|R\b))?/g;
const SCALES: Record<string, number> = { k: 1e3, thousand: 1e3, M: 1e6, mn: 1e6, million: 1e6, B: 1e9, bn: 1e9, billion: 1e9 };

/** The numbers (and ISO dates) a piece of text states, in order. */
export function mentionsOf(text: string): Mention[] {
  const out: { at: number; mention: Mention }[] = [];
  const rest = text.replace(DATE, (match, at: number) => {
    out.push({ at, mention: { text: match, value: Number.NaN, decimals: 0, scale: 1, percent: false, date: match.slice(0, 10) } });
    return ' '.repeat(match.length);
  });
  for (const m of rest.matchAll(NUMBER)) {
    const [whole, , digits, fraction, unit] = m;
    out.push({
      at: m.index,
      mention: {
        text: whole.trim(),
        value: Number(`${digits!.replaceAll(',', '')}${fraction ? `.${fraction}` : ''}`),
        decimals: fraction?.length ?? 0,
        scale: unit ? (SCALES[unit] ?? 1) : 1,
        percent: unit === '%' || unit === 'percent',
      },
    });
  }
  return out.sort((a, b) => a.at - b.at).map((x) => x.mention);
}

/** Every number in the facts: numeric leaves, and the numbers inside text leaves. */
export function factNumbers(facts: unknown): { numbers: FactNumber[]; dates: Map<string, string> } {
  const numbers: FactNumber[] = [];
  const dates = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'number') {
      if (Number.isFinite(value)) numbers.push({ path, value, text: null });
    } else if (typeof value === 'string') {
      for (const m of mentionsOf(value)) {
        if (m.date) {
          if (!dates.has(m.date)) dates.set(m.date, path);
          for (const part of m.date.split('-')) numbers.push({ path, value: Number(part), text: value });
        } else {
          numbers.push({ path, value: m.value, text: value });
          if (m.scale !== 1) numbers.push({ path, value: m.value * m.scale, text: value });
        }
      }
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${path}[${i}]`));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) walk(v, path ? `${path}.${key}` : key);
    }
  };
  walk(facts, '');
  return { numbers, dates };
}

/** How far a fact is from what a mention states, or null when it does not round to it. */
function distance(m: Mention, fact: number): number | null {
  const within = (stated: number, scale: number) => {
    const tolerance = 0.5 * 10 ** -m.decimals * scale * (1 + 1e-9) + 1e-9;
    const d = Math.abs(Math.abs(fact) - stated);
    return d <= tolerance ? d / tolerance : null;
  };
  const plain = within(m.value * m.scale, m.scale);
  if (plain !== null) return plain;
  // A unit conversion ranks after a plain match: a fact already in the stated unit ($M), or a ratio stated as a percentage.
  if (m.scale !== 1) {
    const inUnit = within(m.value, 1);
    if (inUnit !== null) return inUnit + 1;
  }
  if (m.percent) {
    const asRatio = within(m.value / 100, 0.01);
    if (asRatio !== null) return asRatio + 1;
  }
  return null;
}

/** Lower case, underscores as spaces: how a bullet quotes `new_high_52w`. */
const normalized = (text: string) => text.toLowerCase().replaceAll('_', ' ');

export interface GroundingResult {
  /** One sentence per number that matches no fact; empty when the answer is grounded. */
  failures: string[];
  grounding: BulletGrounding[];
}

/** Checks every bullet against the facts (see the module comment). */
export function groundBullets(bullets: readonly string[], facts: unknown): GroundingResult {
  const { numbers, dates } = factNumbers(facts);
  const failures: string[] = [];
  const grounding = bullets.map((bullet, index) => {
    const citations: BulletGrounding['citations'] = [];
    const said = normalized(bullet);
    for (const m of mentionsOf(bullet)) {
      if (m.date) {
        const path = dates.get(m.date);
        if (path) citations.push({ text: m.text, fact: path, value: m.date });
        else failures.push(`bullet ${index + 1} states the date ${m.date}, which is not in the facts`);
        continue;
      }
      let best: { fact: FactNumber; rank: number } | null = null;
      for (const fact of numbers) {
        const d = distance(m, fact.value);
        if (d === null) continue;
        // A fact text the bullet quotes ("donchian 55") ranks first, then a figure, then a number read from other text.
        const rank = d + (fact.text === null ? 2 : said.includes(normalized(fact.text)) ? 0 : 4);
        if (!best || rank < best.rank) best = { fact, rank };
      }
      if (best) citations.push({ text: m.text, fact: best.fact.path, value: best.fact.text ?? best.fact.value });
      else failures.push(`bullet ${index + 1} states ${m.text}, which matches no number in the facts`);
    }
    return { bullet: index, citations };
  });
  return { failures, grounding };
}
