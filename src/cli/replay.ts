/**
 * @module cli/replay
 * `breakline replay [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--symbols A,B,…|--universe default|sp500] [--timeframe daily|4h|1h] [--benchmark SPY] [--fresh]`:
 * a point-in-time replay of history over the configured data source, written
 * to the replay ledger (jobs/replay). Without dates, the last two years. A
 * progress bar on stderr shows sessions done, signals and the time left.
 * Ctrl-C stops after the chunk in progress is committed; the same command
 * resumes where it stopped (`--fresh` starts over as a new replay). Exit 0
 * when the replay is done, 130 when interrupted, 64 for bad arguments, 75 while
 * a server uses the embedded database, 1 when it failed.
 */
import { parseArgs } from 'node:util';
import { TIMEFRAMES, type Timeframe } from '../domain/signal';
import type { ReplayParams, UniverseSpec } from '../domain/replay';
import { recentRange } from '../jobs/replay/boot';
import { runReplay, type ReplayProgress } from '../jobs/replay/run';
import { SYMBOL_PATTERN } from '../modules/shared/params';
import { DEFAULT_BENCHMARK } from '../providers/universe';
import { createServices } from '../services';
import { configOrExit } from './config';
import { holdEmbeddedDatabase, refusalWhileHeld } from './state-lock';

const USAGE = `usage: breakline replay [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--symbols A,B,…|--universe default|sp500] [--timeframe ${TIMEFRAMES.join('|')}] [--benchmark SPY] [--fresh]`;

/** The parsed command line, or the reason it is wrong. */
export function replayArguments(args: string[]): { ok: true; value: { from?: string; to?: string; universe: UniverseSpec; timeframe: Timeframe; benchmark: string; fresh: boolean } } | { ok: false; error: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        symbols: { type: 'string' },
        universe: { type: 'string' },
        timeframe: { type: 'string', default: 'daily' },
        benchmark: { type: 'string', default: DEFAULT_BENCHMARK },
        fresh: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const date = /^\d{4}-\d\d-\d\d$/;
  for (const name of ['from', 'to'] as const) {
    const value = parsed[name];
    if (value !== undefined && (!date.test(value) || Number.isNaN(Date.parse(value)))) return { ok: false, error: `--${name} must be a date YYYY-MM-DD, got ${value}` };
  }
  if (parsed.from && parsed.to && parsed.from > parsed.to) return { ok: false, error: `--from ${parsed.from} is after --to ${parsed.to}` };
  const timeframe = TIMEFRAMES.find((t) => t === parsed.timeframe);
  if (!timeframe) return { ok: false, error: `--timeframe must be one of ${TIMEFRAMES.join(', ')}` };
  if (parsed.symbols !== undefined && parsed.universe !== undefined) return { ok: false, error: 'give --symbols or --universe, not both' };
  let universe: UniverseSpec = { kind: 'default' };
  if (parsed.symbols !== undefined) {
    const symbols = parsed.symbols.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean);
    const bad = symbols.filter((s) => !new RegExp(SYMBOL_PATTERN).test(s));
    if (symbols.length === 0 || bad.length) return { ok: false, error: `--symbols must be a comma-separated list of symbols${bad.length ? `; not symbols: ${bad.join(', ')}` : ''}` };
    universe = { kind: 'symbols', symbols };
  } else if (parsed.universe !== undefined) {
    if (parsed.universe !== 'default' && parsed.universe !== 'sp500') return { ok: false, error: '--universe must be default (today’s S&P 500 ∪ Nasdaq-100) or sp500 (point-in-time S&P 500 membership)' };
    universe = { kind: parsed.universe };
  }
  const benchmark = (parsed.benchmark ?? DEFAULT_BENCHMARK).toUpperCase();
  if (!new RegExp(SYMBOL_PATTERN).test(benchmark)) return { ok: false, error: `--benchmark must be a symbol, got ${benchmark}` };
  return { ok: true, value: { from: parsed.from, to: parsed.to, universe, timeframe, benchmark, fresh: parsed.fresh ?? false } };
}

const clock = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m` : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
};

/** One line of progress: a bar, sessions done, the session reached, signals, records and the time left. */
export function progressLine(p: ReplayProgress, width = 28): string {
  const share = p.sessionsTotal ? p.sessionsDone / p.sessionsTotal : 1;
  const filled = Math.round(share * width);
  const doneHere = p.sessionsDone - p.resumedAt;
  const eta = doneHere > 0 ? ((p.sessionsTotal - p.sessionsDone) * p.elapsedMs) / doneHere : NaN;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.sessionsDone}/${p.sessionsTotal} sessions (${p.through})  signals ${p.signals.toLocaleString('en-US')}  records ${p.records.toLocaleString('en-US')}  elapsed ${clock(p.elapsedMs)}  ETA ${Number.isFinite(eta) ? clock(eta) : '—'}`;
}

export async function replayCommand(args: string[]): Promise<number> {
  const parsed = replayArguments(args);
  if (!parsed.ok) {
    process.stderr.write(`${parsed.error}\n${USAGE}\n`);
    return 64; // EX_USAGE
  }
  const { fresh, from, to, ...rest } = parsed.value;
  const config = configOrExit();
  const lock = await holdEmbeddedDatabase(config, 'breakline replay');
  if (!lock.ok) {
    process.stderr.write(refusalWhileHeld(lock.holder, config, 'replay into the embedded database'));
    return 75; // EX_TEMPFAIL
  }
  const services = await createServices(config, { warmPool: true });
  const stop = new AbortController();
  const interrupt = () => {
    if (stop.signal.aborted) process.exit(130);
    process.stderr.write('\nstopping after the chunk in progress (Ctrl-C again to quit at once)…\n');
    stop.abort();
  };
  process.on('SIGINT', interrupt);
  const tty = process.stderr.isTTY === true;
  let lastShare = -1;
  try {
    const range = from && to ? { from, to } : { ...(await recentRange(services.marketData, rest.timeframe, 2, rest.benchmark)), ...(from ? { from } : {}), ...(to ? { to } : {}) };
    const params: ReplayParams = { ...rest, ...range };
    process.stderr.write(`replay ${params.timeframe} ${params.from} → ${params.to}, universe ${params.universe.kind}, benchmark ${params.benchmark}, data ${services.marketData.provider.name}\n`);
    const run = await runReplay(services, params, {
      origin: 'cli',
      fresh,
      signal: stop.signal,
      onProgress: (p) => {
        const share = Math.floor((100 * p.sessionsDone) / p.sessionsTotal);
        if (tty) process.stderr.write(`\r${progressLine(p)}`);
        else if (share >= lastShare + 5 || p.sessionsDone === p.sessionsTotal) process.stderr.write(`${progressLine(p)}\n`);
        lastShare = share;
      },
    });
    if (tty) process.stderr.write('\n');
    const summary = { id: run.id, status: run.status, sessions: `${run.sessionsDone}/${run.sessionsTotal}`, signals: run.signals, records: run.records, universe: run.universe };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    if (run.status === 'done') {
      process.stderr.write(`done: /api/scorecard?source=replay&replayId=${run.id}\n`);
      return 0;
    }
    process.stderr.write(`interrupted after ${run.sessionsDone} of ${run.sessionsTotal} sessions; run the same command again to resume\n`);
    return 130;
  } catch (error) {
    if (tty) process.stderr.write('\n');
    process.stderr.write(`replay failed: ${(error as Error).message}\n`);
    return error instanceof RangeError ? 64 : 1;
  } finally {
    process.off('SIGINT', interrupt);
    await services.close();
    lock.release();
  }
}
