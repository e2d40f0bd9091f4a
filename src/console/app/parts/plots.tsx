/**
 * @module console/app/parts/plots
 * The record's plots as small SVG components (no chart library needed for a
 * handful of bars): bars with 95% interval whiskers, a reliability diagram,
 * stacked monthly outcomes and a line. Each plot carries a title and a
 * description for screen readers (`role="img"`), and each page shows the
 * numbers beside it in a table too.
 */

const W = 560;
const H = 240;
const PAD = { left: 48, right: 12, top: 14, bottom: 34 };

interface Scale {
  (value: number): number;
  ticks: number[];
}

function linear(domain: [number, number], range: [number, number], tickCount = 5): Scale {
  const [d0, d1] = domain[0] === domain[1] ? [domain[0] - 1, domain[1] + 1] : domain;
  const scale = ((value: number) => range[0] + ((value - d0) / (d1 - d0)) * (range[1] - range[0])) as Scale;
  const step = (d1 - d0) / tickCount;
  scale.ticks = Array.from({ length: tickCount + 1 }, (_, i) => d0 + i * step);
  return scale;
}

function Frame({ title, description, children }: { title: string; description: string; children: preact.ComponentChildren }) {
  return (
    <svg class="plot" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}. ${description}`}>
      {children}
    </svg>
  );
}

/**
 * Where a plot will be while its data loads: a box of the plot's own proportions (W × H; `.plot-slot` in
 * styles.css), so the plot arriving moves nothing below it (a layout shift, which Lighthouse scores).
 */
export function PlotSlot({ children }: { children: preact.ComponentChildren }) {
  return <div class="plot-slot">{children}</div>;
}

function YAxis({ y, format }: { y: Scale; format: (v: number) => string }) {
  return (
    <g>
      {y.ticks.map((tick) => (
        <g key={tick}>
          <line class="grid" x1={PAD.left} x2={W - PAD.right} y1={y(tick)} y2={y(tick)} />
          <text x={PAD.left - 6} y={y(tick) + 4} text-anchor="end">
            {format(tick)}
          </text>
        </g>
      ))}
    </g>
  );
}

export interface IntervalDatum {
  label: string;
  value: number | null;
  lower: number | null;
  upper: number | null;
  /** A second bar beside it (the baseline), drawn lighter. */
  reference?: number | null;
}

/** Bars with whiskers at their 95% interval; `zero` draws the axis at 0 (for lifts and R). */
export function IntervalBars({ title, description, data, format }: { title: string; description: string; data: IntervalDatum[]; format: (v: number) => string }) {
  const values = data.flatMap((d) => [d.value, d.lower, d.upper, d.reference ?? null]).filter((v): v is number => v !== null);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values, low + 1e-9);
  const y = linear([low, high], [H - PAD.bottom, PAD.top]);
  const band = (W - PAD.left - PAD.right) / Math.max(1, data.length);
  return (
    <Frame title={title} description={description}>
      <YAxis y={y} format={format} />
      <line class="axis" x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} />
      {data.map((d, i) => {
        const x = PAD.left + i * band;
        const width = band * (d.reference === undefined ? 0.5 : 0.32);
        const left = x + band * (d.reference === undefined ? 0.25 : 0.16);
        return (
          <g key={d.label}>
            {d.value !== null && <rect class="bar" x={left} width={width} y={Math.min(y(d.value), y(0))} height={Math.abs(y(d.value) - y(0))} />}
            {d.reference !== undefined && d.reference !== null && <rect class="bar alt" x={left + width + 2} width={width} y={Math.min(y(d.reference), y(0))} height={Math.abs(y(d.reference) - y(0))} />}
            {d.lower !== null && d.upper !== null && (
              <g class="whisker">
                <line class="whisker" x1={left + width / 2} x2={left + width / 2} y1={y(d.lower)} y2={y(d.upper)} />
                <line class="whisker" x1={left + width / 2 - 5} x2={left + width / 2 + 5} y1={y(d.lower)} y2={y(d.lower)} />
                <line class="whisker" x1={left + width / 2 - 5} x2={left + width / 2 + 5} y1={y(d.upper)} y2={y(d.upper)} />
              </g>
            )}
            <text x={x + band / 2} y={H - PAD.bottom + 16} text-anchor="middle">
              {d.label}
            </text>
            {d.value === null && (
              <text x={x + band / 2} y={y(0) - 6} text-anchor="middle">
                n/a
              </text>
            )}
          </g>
        );
      })}
    </Frame>
  );
}

export interface ReliabilityPoint {
  predicted: number;
  observed: number;
  lower: number;
  upper: number;
  trades: number;
}

/** Observed win rate against predicted confidence per bin, with intervals; the diagonal is perfect calibration. */
export function Reliability({ points }: { points: ReliabilityPoint[] }) {
  const top = Math.min(1, Math.max(0.5, ...points.map((p) => Math.max(p.upper, p.predicted))) + 0.05);
  const x = linear([0, top], [PAD.left, W - PAD.right]);
  const y = linear([0, top], [H - PAD.bottom, PAD.top]);
  const pctText = (v: number) => `${Math.round(v * 100)}%`;
  return (
    <Frame title="Reliability diagram of confidence" description={`${points.length} bins: observed win rate against the confidence the signals stated; points on the dashed diagonal are perfectly calibrated.`}>
      <YAxis y={y} format={pctText} />
      {x.ticks.map((tick) => (
        <text key={tick} x={x(tick)} y={H - PAD.bottom + 16} text-anchor="middle">
          {pctText(tick)}
        </text>
      ))}
      <text x={(PAD.left + W - PAD.right) / 2} y={H - 4} text-anchor="middle">
        stated confidence
      </text>
      <line class="ideal" x1={x(0)} y1={y(0)} x2={x(top)} y2={y(top)} />
      {points.map((p) => (
        <g key={p.predicted}>
          <line class="whisker" x1={x(p.predicted)} x2={x(p.predicted)} y1={y(p.lower)} y2={y(p.upper)} />
          <circle class="point" cx={x(p.predicted)} cy={y(p.observed)} r={Math.min(7, 2.5 + Math.log10(1 + p.trades))} />
        </g>
      ))}
    </Frame>
  );
}

export interface MonthOutcome {
  month: string;
  wins: number;
  losses: number;
  scratches: number;
}

/** Stacked bars of each month's closed outcomes. */
export function MonthlyOutcomes({ months }: { months: MonthOutcome[] }) {
  const top = Math.max(1, ...months.map((m) => m.wins + m.losses + m.scratches));
  const y = linear([0, top], [H - PAD.bottom, PAD.top]);
  const band = (W - PAD.left - PAD.right) / Math.max(1, months.length);
  return (
    <Frame title="Monthly outcomes" description={`Wins, losses and scratches closed in each of ${months.length} months.`}>
      <YAxis y={y} format={(v) => String(Math.round(v))} />
      {months.map((m, i) => {
        const x = PAD.left + i * band + band * 0.15;
        const width = band * 0.7;
        let base = 0;
        return (
          <g key={m.month}>
            {(['wins', 'losses', 'scratches'] as const).map((part) => {
              const from = base;
              base += m[part];
              return <rect key={part} class={part.slice(0, -1).replace('losse', 'loss').replace('scratche', 'scratch')} x={x} width={width} y={y(base)} height={y(from) - y(base)} />;
            })}
            <text x={x + width / 2} y={H - PAD.bottom + 16} text-anchor="middle">
              {m.month.slice(2)}
            </text>
          </g>
        );
      })}
    </Frame>
  );
}

/** A line over its points in order (an equity curve). */
export function Line({ title, description, values, format }: { title: string; description: string; values: number[]; format: (v: number) => string }) {
  const y = linear([Math.min(...values), Math.max(...values)], [H - PAD.bottom, PAD.top]);
  const x = linear([0, Math.max(1, values.length - 1)], [PAD.left, W - PAD.right]);
  const path = values.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join('');
  return (
    <Frame title={title} description={description}>
      <YAxis y={y} format={format} />
      <path class="line" d={path} />
    </Frame>
  );
}
