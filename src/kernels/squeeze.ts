/**
 * @module kernels/squeeze
 * Short-squeeze risk: a weighted score of four published ingredients, each
 * mapped linearly onto [0, 1] between a "none" and a "full" level:
 *
 * | component | weight | 0 at | 1 at | why |
 * |---|---|---|---|---|
 * | short interest, % of free float | 0.4 | 5% | 30% | above 10% is commonly called elevated and above 20% high (Nasdaq/Investopedia short-interest guides; the usual squeeze screens) |
 * | days to cover (shares short ÷ average daily volume) | 0.3 | 2 | 10 | the short-interest ratio; screens flag > 8–10 days |
 * | momentum: 20-session return | 0.2 | 0% | +25% | a rising price forces covering (Dechow et al., "Short-sellers, fundamental analysis, and stock returns", JFE 61, 2001; squeezes need a catalyst in price) |
 * | borrow: securities-lending utilisation | 0.1 | 50% | 100% | scarce borrow raises fees and recalls (D'Avolio, "The market for borrowing stock", JFE 66, 2002) |
 *
 * score = 100 × Σ wᵢ·sᵢ ÷ Σ wᵢ over the components that are known (missing
 * ones drop out and the rest are renormalised, so a missing borrow figure
 * neither raises nor lowers the score). Bands: < 25 `low`, < 50 `moderate`,
 * < 75 `elevated`, else `high`.
 *
 * @example
 * squeezeScore({ shortPercentFloat: 0.25, daysToCover: 8, momentum: 0.10, utilisation: null });
 * // => { score: 69.44…, risk: 'elevated', … }: (0.4·0.8 + 0.3·0.75 + 0.2·0.4) ÷ 0.9 × 100, borrow unknown
 */

export type SqueezeRisk = 'low' | 'moderate' | 'elevated' | 'high';

export interface SqueezeInputs {
  /** Shares short ÷ free float, as a fraction (0.25 = 25%). */
  shortPercentFloat: number | null;
  daysToCover: number | null;
  /** 20-session simple return as a fraction. */
  momentum: number | null;
  /** Securities-lending utilisation as a fraction, where a source reports it. */
  utilisation: number | null;
}

export const SQUEEZE_COMPONENTS = [
  { key: 'shortPercentFloat', weight: 0.4, none: 0.05, full: 0.3 },
  { key: 'daysToCover', weight: 0.3, none: 2, full: 10 },
  { key: 'momentum', weight: 0.2, none: 0, full: 0.25 },
  { key: 'utilisation', weight: 0.1, none: 0.5, full: 1 },
] as const satisfies readonly { key: keyof SqueezeInputs; weight: number; none: number; full: number }[];

/** Upper score bounds of the bands, ascending; `high` beyond. */
export const SQUEEZE_BANDS = [
  { risk: 'low', below: 25 },
  { risk: 'moderate', below: 50 },
  { risk: 'elevated', below: 75 },
] as const;

export interface SqueezeComponent {
  key: keyof SqueezeInputs;
  value: number | null;
  /** The value mapped onto [0, 1]; null when the value is unknown. */
  score: number | null;
  weight: number;
  /** The weight after renormalising over the known components (0 when unknown). */
  effectiveWeight: number;
}

export interface SqueezeResult {
  /** 0–100, or null when no component is known. */
  score: number | null;
  risk: SqueezeRisk | null;
  components: SqueezeComponent[];
}

/** (x − none) ÷ (full − none), clamped to [0, 1]. */
export function rampScore(x: number, none: number, full: number): number {
  return Math.min(1, Math.max(0, (x - none) / (full - none)));
}

export function squeezeRisk(score: number): SqueezeRisk {
  return SQUEEZE_BANDS.find((b) => score < b.below)?.risk ?? 'high';
}

export function squeezeScore(inputs: SqueezeInputs): SqueezeResult {
  let known = 0;
  for (const c of SQUEEZE_COMPONENTS) if (Number.isFinite(inputs[c.key])) known += c.weight;
  let total = 0;
  const components = SQUEEZE_COMPONENTS.map((c): SqueezeComponent => {
    const value = inputs[c.key];
    if (value === null || !Number.isFinite(value)) return { key: c.key, value: null, score: null, weight: c.weight, effectiveWeight: 0 };
    const score = rampScore(value, c.none, c.full);
    total += c.weight * score;
    return { key: c.key, value, score, weight: c.weight, effectiveWeight: c.weight / known };
  });
  if (known === 0) return { score: null, risk: null, components };
  const score = (100 * total) / known;
  return { score, risk: squeezeRisk(score), components };
}
