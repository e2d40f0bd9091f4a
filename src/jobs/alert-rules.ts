/**
 * @module jobs/alert-rules
 * Users' alert rules, evaluated after every persisted scan run (SignalRuns
 * calls `evaluate` once the run is saved). A rule matches a signal of its
 * timeframe when the symbol is one it watches (its symbols, or its
 * watchlist's symbols now), the pattern type is one of its types (any when it
 * names none), the score reaches its minimum band and minimum score, the
 * direction is its direction (or it takes any), and the signal's state is one
 * of its states. Signals are taken best-ranked first.
 *
 * A match fires once per rule and signal — the database's unique key, so two
 * instances evaluating the same signals fire it once between them — and not
 * again for the same symbol within the rule's cooldown. Firing writes the
 * dispatch, an in-app notification (when the rule has that channel) and a
 * webhook delivery (when it has a webhook) and its `alerts.dispatched` stream
 * event in one transaction, then announces the event on the bus and hands the
 * delivery to the webhook sender, which is not waited for.
 */
import type { AlertDispatchesRepository, DispatchCandidate, Dispatched } from '../db/repositories/alert-dispatches';
import type { AlertRulesRepository, StoredAlertRule } from '../db/repositories/alert-rules';
import type { WatchlistsRepository } from '../db/repositories/watchlists';
import { SCORE_BANDS, type ScanResult, type Signal } from '../domain/signal';
import { newId } from '../ids';
import type { Logger } from '../log';
import type { BusEventInput, EventBus } from '../stream/bus';

export interface AlertRuleDeps {
  rules: AlertRulesRepository;
  watchlists: WatchlistsRepository;
  dispatches: AlertDispatchesRepository;
  bus: EventBus;
  /** The webhook sender (background/webhooks), woken when a delivery was written. */
  webhooks: { kick(): Promise<unknown> | unknown };
  log: Logger;
  now?: () => number;
}

/** Whether `band` is `minimum` or better (elite > strong > watchlist > ignore). */
const bandReaches = (band: string, minimum: string) => SCORE_BANDS.indexOf(band as (typeof SCORE_BANDS)[number]) <= SCORE_BANDS.indexOf(minimum as (typeof SCORE_BANDS)[number]);

/** Whether a rule fires for a signal, given the symbols it watches (see the module comment). */
export function ruleMatches(rule: StoredAlertRule, watched: ReadonlySet<string>, signal: Signal): boolean {
  return (
    rule.timeframe === signal.timeframe &&
    watched.has(signal.symbol) &&
    (rule.patternTypes === null || rule.patternTypes.includes(signal.patternType)) &&
    (rule.minBand === null || bandReaches(signal.scoreBand, rule.minBand)) &&
    (rule.minScore === null || signal.finalScore >= rule.minScore) &&
    (rule.direction === 'any' || rule.direction === signal.direction) &&
    rule.states.includes(signal.breakoutState)
  );
}

/** The title of an alert's notification, e.g. `AAPL flat_base triggered (daily, score 78, strong)`. */
export function alertTitle(signal: Signal): string {
  return `${signal.symbol} ${signal.patternType} ${signal.breakoutState} (${signal.timeframe}, score ${Math.round(signal.finalScore)}, ${signal.scoreBand})`;
}

/** The webhook body of a dispatch: Standard Webhooks' `{ type, timestamp, data }`. */
export function webhookPayload(rule: StoredAlertRule, signal: Signal, dispatch: { id: string; at: Date; createdAt: Date }): string {
  return JSON.stringify({
    type: 'alerts.dispatched',
    timestamp: dispatch.createdAt.toISOString(),
    data: {
      alertId: dispatch.id,
      signalId: signal.id,
      symbol: signal.symbol,
      ruleId: rule.id,
      at: dispatch.at.toISOString(),
      rule: { id: rule.id, name: rule.name },
      signal: {
        id: signal.id,
        symbol: signal.symbol,
        timeframe: signal.timeframe,
        patternType: signal.patternType,
        direction: signal.direction,
        breakoutState: signal.breakoutState,
        finalScore: signal.finalScore,
        scoreBand: signal.scoreBand,
        triggerPrice: signal.triggerPrice,
        target1: signal.target1,
        stopLoss: signal.stopLoss,
        price: signal.price,
        detectedAt: signal.detectedAt,
      },
    },
  });
}

export class AlertRuleDispatcher {
  constructor(private readonly deps: AlertRuleDeps) {}

  /** Fires every enabled rule of the run's timeframe that its signals match; answers what was written. */
  async evaluate(runId: string, result: ScanResult): Promise<Dispatched[]> {
    const { deps } = this;
    const rules = await deps.rules.enabledFor(result.timeframe);
    if (rules.length === 0 || result.signals.length === 0) return [];
    const listed = await deps.watchlists.symbolsOf([...new Set(rules.flatMap((r) => (r.watchlistId ? [r.watchlistId] : [])))]);
    const watchedBy = new Map(rules.map((r) => [r.id, new Set(r.symbols ?? listed.get(r.watchlistId!) ?? [])]));
    const now = new Date((deps.now ?? Date.now)());
    const at = new Date(result.asOf);
    const candidates: DispatchCandidate[] = [];
    const signalOf = new Map<string, Signal>();
    for (const signal of result.signals) {
      for (const rule of rules) {
        if (!ruleMatches(rule, watchedBy.get(rule.id)!, signal)) continue;
        const dispatch = { id: newId('alr'), ruleId: rule.id, userId: rule.userId, signalId: signal.id, symbol: signal.symbol, timeframe: signal.timeframe, state: signal.breakoutState, runId, at, createdAt: now };
        signalOf.set(dispatch.id, signal);
        candidates.push({
          dispatch,
          cooldownMs: rule.cooldownMinutes * 60_000,
          notification: rule.inApp
            ? {
                id: newId('ntf'),
                userId: rule.userId,
                kind: 'alert',
                title: alertTitle(signal),
                alertId: dispatch.id,
                ruleId: rule.id,
                ruleName: rule.name,
                signalId: signal.id,
                symbol: signal.symbol,
                timeframe: signal.timeframe,
                patternType: signal.patternType,
                state: signal.breakoutState,
                finalScore: signal.finalScore,
                scoreBand: signal.scoreBand,
                createdAt: now,
                readAt: null,
              }
            : undefined,
          delivery: rule.webhookUrl
            ? (written) => ({
                id: newId('whd'),
                dispatchId: written.id,
                ruleId: rule.id,
                userId: rule.userId,
                url: rule.webhookUrl!,
                payload: webhookPayload(rule, signal, written),
                status: 'pending',
                attempts: 0,
                nextAttemptAt: now,
                createdAt: now,
                finishedAt: null,
              })
            : undefined,
        });
      }
    }
    const names = new Map(rules.map((r) => [r.id, r.name]));
    const announce = (fired: Dispatched[]) =>
      fired.map(
        ({ dispatch }): BusEventInput => ({
          channel: 'alerts.dispatched',
          payload: {
            alertId: dispatch.id,
            signalId: dispatch.signalId,
            symbol: dispatch.symbol,
            ruleId: dispatch.ruleId,
            at: dispatch.at.toISOString(),
            userId: dispatch.userId,
            rule: { id: dispatch.ruleId, name: names.get(dispatch.ruleId) ?? '' },
          },
        }),
      );
    // The dispatches and their stream events commit together (the log is the stream's source).
    const { written, events } = await deps.dispatches.record(candidates, announce);
    deps.bus.announce(events);
    if (written.some((w) => w.delivery)) void deps.webhooks.kick();
    if (written.length) deps.log.info('alert rules fired', { runId, timeframe: result.timeframe, dispatches: written.length });
    return written;
  }
}
