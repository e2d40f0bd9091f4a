/**
 * bench/failure-rule: the lifecycle's failure rule decided by evidence, by
 * the protocol of docs/research-protocol.md (criterion in
 * docs/failure-rule.md, committed before any candidate was judged).
 *
 * Candidates (kernels/lifecycle `FailureRule`):
 *   trigger-1%   today's rule: a close more than 1% back through the trigger
 *   atr-1.5      a close more than 1.5 ATR(14) (of the pattern's last bar) back through the trigger
 *   base-0.5     a close back inside the base, past its middle (half its depth below the trigger)
 *   none         no failure rule: only the stop or target1 ends a trade
 *
 *   bun run bench/failure-rule.ts --gather atr-1.5 --trades fr-atr.json     # replay 2005-01-01..2017-12-29 under the rule
 *   bun run bench/failure-rule.ts --choose --trades fr-trigger.json,fr-atr.json,fr-base.json,fr-none.json
 *   bun run bench/failure-rule.ts --judge --trades … (the same files)        # once, after the choice is committed
 *
 * `--gather` replays the real daily history (S&P 500 members of each date,
 * SPY benchmark) from 2005-01-01 to 2017-12-29 only: 2017–2024 is not used
 * for this decision (the last year is there so that trades detected in 2016
 * can resolve). `--choose` reads trades detected 2005-01-01..2012-12-31 and
 * drops the rest as the files are read; `--judge` reads those detected
 * 2013-01-01..2016-12-31 only. Both print each candidate's figures (ledger
 * hit rate, mean R, scratch share, same-day lift) with weekly cluster-bootstrap
 * intervals and apply the criterion of docs/failure-rule.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { FailureRule } from '../src/kernels/lifecycle';
import { gatherTrades, type Gathered } from './calibration-trades';
import { realCsvDir } from './lib';

/** The candidates, by name (docs/failure-rule.md). */
export const CANDIDATES: Readonly<Record<string, FailureRule>> = {
  'trigger-1%': { kind: 'trigger', buffer: 0.01 },
  'atr-1.5': { kind: 'atr', multiple: 1.5 },
  'base-0.5': { kind: 'base', fraction: 0.5 },
  none: { kind: 'none' },
};

/** The replay's range: training and validation years, and one more year for their trades to resolve. */
export const GATHER_FROM = '2005-01-01';
export const GATHER_TO = '2017-12-29';

if (import.meta.main) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      gather: { type: 'string' },
      trades: { type: 'string' },
      matches: { type: 'string', default: '5' },
    },
  });
  const real = realCsvDir();
  if (!real) {
    console.log('bench/failure-rule: shared/data is not here; nothing to measure');
    process.exit(0);
  }
  if (values.gather) {
    const failure = CANDIDATES[values.gather];
    if (!failure || !values.trades) throw new Error(`--gather needs a candidate (${Object.keys(CANDIDATES).join(', ')}) and --trades <file>`);
    const gathered: Gathered = await gatherTrades({ dir: real.dir, from: GATHER_FROM, to: GATHER_TO, matches: 0, failure, onProgress: (line) => process.stderr.write(`\r${values.gather} ${line}   `) });
    writeFileSync(values.trades, JSON.stringify(gathered));
    console.log(`\n${values.gather}: ${gathered.trades.length} entered trades in ${(gathered.replayMs / 1000).toFixed(0)} s; written ${values.trades}`);
    process.exit(0);
  }
  void readFileSync;
}
