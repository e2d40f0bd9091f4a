/**
 * @module kernels/alert-policy
 * DESIGN §4's alert policy over a ranked list of signals: a signal is a
 * candidate when its band is strong or better and it has triggered (or
 * confirmed) or sits within 2% of its trigger; it is blocked, with every
 * reason listed, when the price is extended more than 5% past the trigger, its
 * average dollar volume is under the liquidity floor, it is a long in a
 * risk-off market, earnings fall within 5 trading days, or the same symbol was
 * already alerted in the cooldown: by another signal in the alert log within
 * `cooldownHours` of bar time, or by a better-ranked signal of the same
 * evaluation (signals are evaluated in rank order). Every rule reads one
 * signal or one symbol, so a symbol's signals evaluated alone get the verdicts
 * they get in the whole list (the replay evaluates per symbol in the worker
 * pool; the live run once per run, jobs/alerts).
 *
 * Every block is a risk rule, not an edge rule: judged on the replayed record
 * (docs/alert-policy.md, 2005–2012 and 2013–2016), no block stops signals
 * that earned less than those it lets through, and the risk-off longs the
 * `regime` block stops did as well or better. Each limits exposure (to a
 * report's gap, a thin market, a chase, a falling market, one name); none is a
 * filter for better trades. The scorecard's `alertPolicy` shows each reason's
 * record as the ledger keeps it.
 */
import type { AlertBlock, Signal } from '../domain/signal';

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
export function summarize(candidates: readonly Signal[], blocked: readonly BlockedAlert[]): AlertEvaluation['summary'] {
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
