/**
 * @module jobs/alerts
 * DESIGN §4's alert policy: a signal is a candidate when its band is strong or
 * better and it has triggered (or confirmed) or sits within 2% of its trigger;
 * it is blocked, with every reason listed, when the price is extended more than
 * 5% past the trigger, its average dollar volume is under the liquidity floor,
 * it is a long in a risk-off market, earnings fall within 5 trading days, or
 * the same symbol was already alerted in the cooldown: by another signal in the
 * alert log within `cooldownHours` of bar time, or by a better-ranked signal of
 * the same evaluation (signals are evaluated in rank order).
 */
import type { ScansRepository } from '../db/repositories/scans';
import type { AlertBlock, AlertVerdicts, Signal, Timeframe } from '../domain/signal';
import { tradingDaysUntil } from '../providers/calendar';
import type { MarketDataProvider } from '../providers/types';

export const ALERT_THRESHOLDS = {
  minBand: 'strong',
  nearTriggerPct: 2,
  maxExtensionPct: 5,
  minAvgDollarVolume: 20_000_000,
  earningsWithinTradingDays: 5,
  cooldownHours: 72,
  blockLongsInRegime: 'risk_off',
} as const;

export interface AlertInputs {
  regime: string | null;
  /** Trading days to the symbol's next earnings report, when the provider knows it. */
  earningsInTradingDays?: (symbol: string) => number | null;
  /** Per symbol, the signals alerted within the cooldown (from the alert log); another signal of the symbol is blocked. */
  recentAlerts?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface BlockedAlert {
  signal: Signal;
  /** Each reason in words, with its numbers. */
  reasons: string[];
  /** The same reasons as codes, in the same order. */
  codes: AlertBlock[];
}

export interface AlertEvaluation {
  candidates: Signal[];
  blocked: BlockedAlert[];
  summary: { eligible: number; candidates: number; blocked: number; byReason: Record<string, number> };
}

/** The counts of an evaluation: every eligible signal is a candidate or blocked. */
function summarize(candidates: readonly Signal[], blocked: readonly BlockedAlert[]): AlertEvaluation['summary'] {
  const byReason: Record<string, number> = {};
  for (const b of blocked) for (const code of b.codes) byReason[code] = (byReason[code] ?? 0) + 1;
  return { eligible: candidates.length + blocked.length, candidates: candidates.length, blocked: blocked.length, byReason };
}

const STRONG_BANDS = new Set(['elite', 'strong']);

export function evaluateAlerts(signals: readonly Signal[], inputs: AlertInputs): AlertEvaluation {
  const t = ALERT_THRESHOLDS;
  const candidates: Signal[] = [];
  const blocked: BlockedAlert[] = [];
  const alertedNow = new Map<string, string>();
  for (const signal of signals) {
    const live = signal.breakoutState === 'triggered' || signal.breakoutState === 'confirmed';
    if (!STRONG_BANDS.has(signal.scoreBand) || !(live || Math.abs(signal.distancePct) <= t.nearTriggerPct)) continue;
    const reasons: [AlertBlock, string][] = [];
    if (signal.distancePct > t.maxExtensionPct) reasons.push(['extended', `extended ${signal.distancePct.toFixed(1)}% past the trigger (max ${t.maxExtensionPct}%)`]);
    if (signal.avgDollarVolume !== null && signal.avgDollarVolume < t.minAvgDollarVolume) {
      reasons.push(['illiquid', `average dollar volume $${(signal.avgDollarVolume / 1e6).toFixed(1)}M below the $${t.minAvgDollarVolume / 1e6}M floor`]);
    }
    if (signal.direction === 'long' && inputs.regime === t.blockLongsInRegime) reasons.push(['regime', 'long setup in a risk-off market']);
    const earnings = inputs.earningsInTradingDays?.(signal.symbol) ?? null;
    if (earnings !== null && earnings <= t.earningsWithinTradingDays) reasons.push(['earnings', `earnings in ${earnings} trading day${earnings === 1 ? '' : 's'}`]);
    const sameRun = alertedNow.get(signal.symbol);
    const earlier = [...(inputs.recentAlerts?.get(signal.symbol) ?? [])].find((id) => id !== signal.id) ?? (sameRun !== signal.id ? sameRun : undefined);
    if (earlier !== undefined) reasons.push(['cooldown', `${signal.symbol} already alerted within ${t.cooldownHours} hours (${earlier})`]);
    if (reasons.length === 0) {
      candidates.push(signal);
      alertedNow.set(signal.symbol, signal.id);
    } else {
      blocked.push({ signal, reasons: reasons.map(([, text]) => text), codes: reasons.map(([code]) => code) });
    }
  }
  return { candidates, blocked, summary: summarize(candidates, blocked) };
}

/** An evaluation by signal id, to store with a persisted run. */
export function verdictsOf(evaluation: AlertEvaluation): AlertVerdicts {
  return {
    candidates: evaluation.candidates.map((s) => s.id),
    blocked: evaluation.blocked.map((b) => ({ signalId: b.signal.id, codes: b.codes, reasons: b.reasons })),
  };
}

/** Stored verdicts back over the run's signals. */
export function evaluationOf(signals: readonly Signal[], verdicts: AlertVerdicts): AlertEvaluation {
  const byId = new Map(signals.map((s) => [s.id, s]));
  const candidates = verdicts.candidates.map((id) => byId.get(id)).filter((s) => s !== undefined);
  const blocked = verdicts.blocked.flatMap((b) => {
    const signal = byId.get(b.signalId);
    return signal ? [{ signal, reasons: b.reasons, codes: b.codes }] : [];
  });
  return { candidates, blocked, summary: summarize(candidates, blocked) };
}

/**
 * The part of an evaluation that concerns `symbols`. Every rule of the policy
 * reads one signal or one symbol, so this equals evaluating those symbols'
 * signals alone.
 */
export function alertsOfSymbols(evaluation: AlertEvaluation, symbols: ReadonlySet<string>): AlertEvaluation {
  const candidates = evaluation.candidates.filter((s) => symbols.has(s.symbol));
  const blocked = evaluation.blocked.filter((b) => symbols.has(b.signal.symbol));
  return { candidates, blocked, summary: summarize(candidates, blocked) };
}

/** Two evaluations of disjoint symbols as one, in rank order. */
export function mergeAlerts(a: AlertEvaluation, b: AlertEvaluation, rank: (x: Signal, y: Signal) => number): AlertEvaluation {
  const candidates = [...a.candidates, ...b.candidates].sort(rank);
  const blocked = [...a.blocked, ...b.blocked].sort((x, y) => rank(x.signal, y.signal));
  return { candidates, blocked, summary: summarize(candidates, blocked) };
}

/** Trading days from the scan's date to each symbol's next earnings report, when the provider knows the dates. */
export function earningsDistance(provider: MarketDataProvider, asOf: string): ((symbol: string) => number | null) | undefined {
  if (!provider.earningsDates) return undefined;
  const today = asOf.slice(0, 10);
  return (symbol) => {
    const next = provider.earningsDates!(symbol).find((d) => d >= today);
    if (!next) return null;
    return tradingDaysUntil(today, next);
  };
}

/**
 * The alert policy for a scan's ranked signals as of its bar time `asOf`:
 * earnings from the provider, the cooldown from the alert log.
 */
export async function alertsAt(
  deps: { scans: ScansRepository; provider: MarketDataProvider },
  timeframe: Timeframe,
  signals: readonly Signal[],
  regime: string | null,
  asOf: string,
): Promise<AlertEvaluation> {
  const to = new Date(asOf);
  const from = new Date(to.getTime() - ALERT_THRESHOLDS.cooldownHours * 3_600_000);
  const recentAlerts = await deps.scans.recentAlerts(timeframe, from, to);
  return evaluateAlerts(signals, { regime, earningsInTradingDays: earningsDistance(deps.provider, asOf), recentAlerts });
}
