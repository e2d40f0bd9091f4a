/**
 * @module console/app/pages/market
 * Market: the regime of the universe scan (benchmark trend, breadth,
 * distribution days: `/api/universe/scan`), sector rotation against the
 * benchmark (`/api/sector-rotation`, RRG quadrants) and the universe ranked
 * by relative strength with each symbol's best setup.
 */
import { count, pct, price, words } from '../format';
import { Pending } from '../parts/problem';
import { useApi } from '../parts/use-api';
import { signalPath } from '../router';

interface Sector {
  sector: string;
  symbol: string;
  rsRatio: number;
  rsMomentum: number;
  quadrant: string;
  performance: Record<string, { asset: number; benchmark: number; relative: number }>;
}

interface Ranked {
  symbol: string;
  name: string;
  sector: string;
  price: number;
  rsRank: number;
  avgDollarVolume: number;
  trendTemplate: { met: number };
  trendRegime: string;
  bestSetup: { id?: string; timeframe?: string; patternType: string; finalScore: number; scoreBand: string } | null;
}

interface Scan {
  asOf: string;
  benchmark: string;
  universeSize: number;
  regime: { regime: string; points: number; breadth: number | null; distributionDays: number; reasons: string[] };
  regimeMultiplier: number;
  ranked: Ranked[];
}

export function MarketPage() {
  const scan = useApi<Scan>('/api/universe/scan?limit=50&minAvgVolUsd=0');
  const rotation = useApi<{ asOf: string; benchmark: string; sectors: Sector[] }>('/api/sector-rotation');
  // Each section is drawn once the ones above it are (or have failed): drawn earlier, its content arriving after
  // theirs would push them down the page (a layout shift, a quarter of Lighthouse's performance score).
  const regimeSettled = scan.data !== undefined || scan.error !== undefined;
  const rotationSettled = rotation.data !== undefined || rotation.error !== undefined;
  return (
    <section aria-labelledby="market-title">
      <h1 id="market-title">Market</h1>
      <h2>Regime</h2>
      {!scan.data ? (
        <Pending what="the regime" error={scan.error} retry={scan.reload} />
      ) : (
        <div class="card" data-regime={scan.data.regime.regime}>
          <p>
            <strong>{words(scan.data.regime.regime)}</strong> ({scan.data.regime.points} points) · breadth {scan.data.regime.breadth === null ? '—' : pct(scan.data.regime.breadth * 100, 0)} · {scan.data.regime.distributionDays} distribution days · long
            scores × {scan.data.regimeMultiplier}
          </p>
          <ul>
            {scan.data.regime.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      )}
      {regimeSettled && (
        <>
          <h2>Sector rotation</h2>
          {!rotation.data ? (
            <Pending what="sector rotation" error={rotation.error} retry={rotation.reload} />
          ) : (
            <div class="table-wrap" tabIndex={0} role="region" aria-label="Sector rotation">
              <table>
                <caption>Against {rotation.data.benchmark}: RS-Ratio and RS-Momentum (100 = in line), relative performance in percent</caption>
                <thead>
                  <tr>
                    <th scope="col">Sector</th>
                    <th scope="col">Quadrant</th>
                    <th scope="col" class="num">RS-Ratio</th>
                    <th scope="col" class="num">RS-Momentum</th>
                    <th scope="col" class="num">1 week</th>
                    <th scope="col" class="num">1 month</th>
                    <th scope="col" class="num">3 months</th>
                  </tr>
                </thead>
                <tbody>
                  {[...rotation.data.sectors].sort((a, b) => b.rsRatio - a.rsRatio).map((s) => (
                    <tr key={s.symbol}>
                      <th scope="row">
                        {s.sector} <span class="muted">{s.symbol}</span>
                      </th>
                      <td>{s.quadrant}</td>
                      <td class="num">{s.rsRatio.toFixed(1)}</td>
                      <td class="num">{s.rsMomentum.toFixed(1)}</td>
                      {(['1w', '1m', '3m'] as const).map((span) => (
                        <td key={span} class="num">
                          {pct(s.performance[span]?.relative, 1)}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
      {regimeSettled && rotationSettled && (
        <>
          <h2>Universe ranking</h2>
          {!scan.data ? (
            <Pending what="the universe scan" error={scan.error} retry={scan.reload} />
          ) : (
            <div class="table-wrap" tabIndex={0} role="region" aria-label="Universe ranking">
              <table>
                <caption>
                  Top {scan.data.ranked.length} of {count(scan.data.universeSize)} by RS rank
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Symbol</th>
                    <th scope="col">Sector</th>
                    <th scope="col" class="num">RS rank</th>
                    <th scope="col" class="num">Price</th>
                    <th scope="col" class="num">Trend template</th>
                    <th scope="col">Trend</th>
                    <th scope="col">Best setup</th>
                  </tr>
                </thead>
                <tbody>
                  {scan.data.ranked.map((row) => (
                    <tr key={row.symbol}>
                      <th scope="row" title={row.name}>
                        {row.symbol}
                      </th>
                      <td>{row.sector}</td>
                      <td class="num">{row.rsRank}</td>
                      <td class="num">{price(row.price)}</td>
                      <td class="num">{row.trendTemplate.met}/8</td>
                      <td>{row.trendRegime}</td>
                      <td>
                        {row.bestSetup ? (
                          row.bestSetup.id ? (
                            <a href={signalPath(row.bestSetup.id, row.bestSetup.timeframe)}>
                              {words(row.bestSetup.patternType)} ({row.bestSetup.finalScore.toFixed(0)})
                            </a>
                          ) : (
                            `${words(row.bestSetup.patternType)} (${row.bestSetup.finalScore.toFixed(0)})`
                          )
                        ) : (
                          <span class="muted">none</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
