/**
 * Cuts the real-data excerpts the default test suite reads (test/fixtures/)
 * out of the full history in shared/data (`SHARED_DATA_DIR`, else
 * ../shared/data). Only sources whose licence allows redistribution are cut
 * (test/fixtures/SOURCES.md names each); rows are copied byte for byte, never
 * edited. Run again after changing a window: `bun run scripts/make-fixtures.ts`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

const SHARED = process.env.SHARED_DATA_DIR ?? resolve(import.meta.dir, '../../shared/data');
const OUT = resolve(import.meta.dir, '../test/fixtures');
if (!existsSync(SHARED)) throw new Error(`shared data not found at ${SHARED} (set SHARED_DATA_DIR)`);

/**
 * dieperdev daily history (Unlicense): per symbol, the sessions the default
 * tests name, with at least 520 sessions before the first (the 200-day and
 * 52-week indicators and the longest pattern lookbacks are warm by then).
 */
const DAILY: Record<string, [from: string, to: string]> = {
  AAPL: ['2022-01-03', '2024-03-08'],
  AMZN: ['2018-06-01', '2020-10-30'],
  ASML: ['2017-12-01', '2020-08-31'],
  AVGO: ['2017-03-01', '2020-02-28'],
  C: ['2019-01-02', '2021-05-28'],
  CRM: ['2012-12-03', '2015-07-31'],
  DIS: ['2016-06-01', '2018-11-30'],
  GOOGL: ['2018-09-04', '2021-03-31'],
  INTC: ['2019-11-01', '2022-12-30'],
  JPM: ['2020-11-02', '2023-03-31'],
  KO: ['2020-11-02', '2024-03-08'],
  LLY: ['2021-04-01', '2023-10-31'],
  META: ['2019-12-02', '2024-03-08'],
  NFLX: ['2020-06-01', '2022-12-30'],
  NKE: ['2018-10-01', '2021-05-28'],
  NVDA: ['2014-12-01', '2024-03-08'],
  SMCI: ['2020-05-01', '2024-03-08'],
  TSLA: ['2017-05-01', '2019-12-31'],
  WMT: ['2021-01-04', '2023-05-31'],
};

function text(path: string): string {
  const raw = readFileSync(path);
  return path.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
}

function write(path: string, lines: string[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.join('\n') + '\n');
  console.log(`${path.slice(OUT.length + 1)}: ${lines.length - 1} rows`);
}

/** Header plus the rows whose first `dateAt`-th cell falls in [from, to]. */
function excerpt(source: string, keep: (cells: string[]) => boolean): string[] {
  const [header, ...rows] = text(source).trim().split(/\r?\n/);
  return [header!, ...rows.filter((row) => keep(row.split(',')))];
}

for (const [symbol, [from, to]] of Object.entries(DAILY)) {
  const dir = join(SHARED, 'daily_yf_dieperdev');
  const file = existsSync(join(dir, `${symbol}.csv`)) ? `${symbol}.csv` : `${symbol}.csv.gz`;
  const lines = excerpt(join(dir, file), ([date]) => date! >= from && date! <= to);
  if (lines.length < 500) throw new Error(`${symbol}: only ${lines.length - 1} rows in ${from}..${to}`);
  write(join(OUT, 'daily_yf_dieperdev', `${symbol}.csv`), lines);
}

// QQQ 60-minute bars of March 2023 (gcfc/money-tree, MIT), pre/post market included as in the source.
write(
  join(OUT, 'intraday', 'yf_1h_moneytree', 'QQQ_1h.csv'),
  excerpt(join(SHARED, 'intraday', 'yf_1h_moneytree', 'QQQ_1h.csv.gz'), (cells) => cells[1]! >= '2023-03-01' && cells[1]! < '2023-04-01'),
);

// The TSLA and AAPL lines of the parsed Form 4 file (facts from SEC filings, public information).
write(
  join(OUT, 'insider_form4', 'tsla_aapl_form4_2025-2026.csv'),
  excerpt(join(SHARED, 'insider_form4', 'sp500_form4_transactions_2025-2026.csv.gz'), ([ticker]) => ticker === 'TSLA' || ticker === 'AAPL'),
);

// Alpaca 1-minute SPY bars of 2025-04-24/25, extended hours included (dawsh2/ADMF-trader, MIT): the whole file,
// replayed by the loopback Alpaca server (test/helpers/vendors/alpaca-server.ts).
write(join(OUT, 'intraday', 'alpaca_spy_1min', 'SPY_1min.csv'), excerpt(join(SHARED, 'intraday', 'alpaca_spy_1min', 'SPY_1min.csv'), () => true));

// Polygon 5-minute aggregates (Tanushree28/ORB-RuleBased, MIT) of four sessions: the eve of Thanksgiving and the
// early close after it (2023-11-22, 2023-11-24), and the Friday and Monday around the 2024 change to daylight time
// (2024-03-08 EST, 2024-03-11 EDT), for every symbol, so the grouped-daily replay has a market of six.
const POLYGON_DAYS = ['2023-11-22', '2023-11-24', '2024-03-08', '2024-03-11'];
for (const symbol of ['XLK', 'UNH', 'ADBE', 'COST', 'MA', 'PEP']) {
  write(
    join(OUT, 'intraday', 'polygon_5m', `${symbol}_5m.csv`),
    excerpt(join(SHARED, 'intraday', 'polygon_5m', `${symbol}_5m.csv.gz`), ([datetime]) => POLYGON_DAYS.includes(datetime!.slice(0, 10))),
  );
}
