/**
 * @module modules/backtest/service
 * The walk-forward backtest route's logic: the effective inputs from the
 * query (and, on POST, the body: a field given both ways must agree), then a
 * single-symbol run (answered at once) or a universe job (jobs/backtest).
 * A universe run is POST only: a GET never starts a job.
 */
import type { BacktestConfig, BacktestJob, WalkForwardResponse } from '../../domain/backtest';
import { AppError } from '../../errors';
import type { BacktestRequest } from '../../jobs/backtest';
import type { Principal } from '../../auth';
import type { Services } from '../../services';
import { DEFAULT_POSITIONS, MONTHS, MONTHS_ERROR, type WalkForwardBody, type WalkForwardQuery } from './model';

type Deps = Pick<Services, 'backtests' | 'marketData'>;

export interface WalkForwardInput {
  query: WalkForwardQuery;
  /** The parsed JSON body (POST), `{}` without one. */
  body?: WalkForwardBody;
  /** Query parameters present in the request (a defaulted one is not). */
  given: ReadonlySet<string>;
}

export type WalkForwardAnswer = { kind: 'result'; body: WalkForwardResponse } | { kind: 'job'; job: BacktestJob };

const NUMERIC = ['train', 'test', 'purge', 'embargo', 'hold', 'commission', 'slippage', 'capital', 'maxPositions', 'trials'] as const;

/** One field from the query or the body; both given and different is a 400. */
function pick<V>(name: string, fromQuery: V | undefined, fromBody: V | undefined, given: ReadonlySet<string>, same: (a: V, b: V) => boolean = (a, b) => a === b): V | undefined {
  if (fromBody === undefined) return fromQuery;
  if (given.has(name) && fromQuery !== undefined && !same(fromQuery, fromBody)) {
    throw new AppError('invalid_parameter', `'${name}' is given as a query parameter and in the body with different values`);
  }
  return fromBody;
}

/** The request after defaults, with the universe resolved. */
async function requestOf(deps: Deps, { query, body = {}, given }: WalkForwardInput): Promise<BacktestRequest> {
  const symbol = pick('symbol', query.symbol, body.symbol?.toUpperCase(), given)!;
  const benchmark = pick('benchmark', query.benchmark, body.benchmark?.toUpperCase(), given)!;
  if (!(MONTHS as readonly number[]).includes(query.months)) throw new AppError('invalid_parameter', MONTHS_ERROR);
  const months = pick('months', query.months, body.months, given)!;
  const listed = pick('symbols', query.symbols?.split(','), body.symbols, given, (a, b) => a.join(',').toUpperCase() === b.join(',').toUpperCase());
  const universe = pick('universe', query.universe, body.universe, given) ?? null;
  if (listed && universe) throw new AppError('invalid_parameter', "Give 'symbols' or 'universe', not both");
  const numbers = Object.fromEntries(NUMERIC.map((name) => [name, pick(name, query[name], body[name], given)]));
  const config: BacktestConfig = {
    timeframe: 'daily',
    months: months as BacktestConfig['months'],
    train: numbers.train!,
    test: numbers.test!,
    purge: numbers.purge!,
    embargo: numbers.embargo!,
    hold: numbers.hold!,
    commission: numbers.commission!,
    slippage: numbers.slippage!,
    capital: numbers.capital!,
    maxPositions: numbers.maxPositions ?? (listed || universe ? DEFAULT_POSITIONS.universe : DEFAULT_POSITIONS.single),
    minTrainTrades: 5,
    trials: numbers.trials ?? null,
  };
  let symbols: string[] = [];
  if (listed) symbols = [...new Set(listed.map((s) => s.toUpperCase()))];
  else if (universe) {
    const instruments = await deps.marketData.instruments();
    symbols = [...instruments.values()].filter((i) => i.kind === 'stock' && i.indices.includes(universe)).map((i) => i.symbol).sort();
    if (symbols.length === 0) throw new AppError('not_found', `The data provider serves no ${universe} members`);
  }
  return { symbol, benchmark, config, symbols, universe };
}

export async function walkForward(deps: Deps, principal: Principal, input: WalkForwardInput, method: 'GET' | 'POST'): Promise<WalkForwardAnswer> {
  const request = await requestOf(deps, input);
  if (request.symbols.length === 0) return { kind: 'result', body: await deps.backtests.single(request) };
  if (method === 'GET') throw new AppError('invalid_parameter', "A universe run ('symbols' or 'universe') is a job: start it with POST /api/backtest/walk-forward");
  return { kind: 'job', job: await deps.backtests.submit(principal.userId, request) };
}

export function backtestJob(deps: Deps, principal: Principal, id: string): Promise<BacktestJob> {
  return deps.backtests.job(principal.userId, id);
}
