/**
 * @module modules/alerts/service
 * A user's alert rules (`/api/alerts/v2`) and their webhook delivery log:
 * plain functions of (deps, principal, input). A user sees and changes only
 * their own rules (another user's answers 404). Symbols are checked against
 * the provider, a watchlist must be the user's, a webhook needs the tier of
 * FEATURE_TIERS and an address the SSRF rule admits (jobs/webhook-address);
 * the rules' count is capped per tier. Firing is jobs/alert-rules'.
 */
import type { Principal } from '../../auth';
import type { AlertRuleChanges, StoredAlertRule } from '../../db/repositories/alert-rules';
import { timestampKey } from '../../db/repositories/keyset';
import { FEATURE_TIERS, tierAtLeast } from '../../domain/tiers';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { checkWebhookUrl } from '../../jobs/webhook-address';
import { newWebhookSecret } from '../../background/webhooks';
import { round } from '../../kernels/round';
import { keysetPage, readPage } from '../../pagination';
import type { Services } from '../../services';
import { checkedSymbols, notYours } from '../shared/account';
import type { CreateRuleBody, DeliveryPage, RulePage, RuleQuery, RuleSchema, UpdateRuleBody } from './model';

/** A minimum score as stored: to 0.01 (scores are given to two decimals; the column is a 4-byte float, where 1e-190 underflows). */
const storedScore = (score: number): number => round(score, 2);

export type AlertDeps = Pick<Services, 'account' | 'marketData' | 'config'>;

const DEFAULTS = { timeframe: 'daily', direction: 'any', states: ['triggered'], cooldownMinutes: 60, enabled: true, inApp: true } as const;

function ruleView(rule: StoredAlertRule, newSecret?: string): RuleSchema {
  return {
    id: rule.id,
    name: rule.name,
    symbols: rule.symbols,
    watchlistId: rule.watchlistId,
    patternTypes: rule.patternTypes,
    minBand: rule.minBand,
    minScore: rule.minScore,
    timeframe: rule.timeframe,
    direction: rule.direction,
    states: rule.states,
    cooldownMinutes: rule.cooldownMinutes,
    enabled: rule.enabled,
    channels: { inApp: rule.inApp, webhook: rule.webhookUrl ? { url: rule.webhookUrl, ...(newSecret ? { secret: newSecret } : {}) } : null },
    createdAt: rule.createdAt.toISOString(),
    updatedAt: rule.updatedAt.toISOString(),
  };
}

/** The rule's target as stored: checked symbols (within the tier's symbol cap), or a watchlist of the user's. */
async function target(deps: AlertDeps, principal: Principal, body: { symbols?: string[]; watchlistId?: string }): Promise<{ symbols: string[] | null; watchlistId: string | null }> {
  if ((body.symbols === undefined) === (body.watchlistId === undefined)) {
    throw new AppError('invalid_body', "Give exactly one of body fields 'symbols' and 'watchlistId'");
  }
  if (body.watchlistId !== undefined) {
    if (!(await deps.account.watchlists.get(principal.userId, body.watchlistId))) throw notYours('watchlist', body.watchlistId);
    return { symbols: null, watchlistId: body.watchlistId };
  }
  const symbols = await checkedSymbols(deps.marketData, body.symbols!, 'symbols');
  const cap = deps.config.account.caps.watchlistSymbols[principal.tier];
  if (symbols.length > cap) throw new AppError('forbidden', `A rule watches at most ${cap} symbols on the ${principal.tier} tier (or watch a watchlist)`);
  return { symbols, watchlistId: null };
}

/** A webhook URL the tier and the SSRF rule admit. */
async function webhookUrl(deps: AlertDeps, principal: Principal, url: string): Promise<string> {
  if (!tierAtLeast(principal.tier, FEATURE_TIERS.webhooks)) {
    throw new AppError('forbidden', `Webhook channels need the ${FEATURE_TIERS.webhooks} tier or above; this account is ${principal.tier}`);
  }
  const checked = await checkWebhookUrl(url, { allowPrivate: deps.config.account.webhooks.allowPrivate });
  if (!checked.ok) throw new AppError('invalid_body', `Body field 'channels.webhook.url' is refused: ${checked.reason}`);
  return checked.url.href;
}

function requireChannel(inApp: boolean, webhook: string | null): void {
  if (!inApp && webhook === null) throw new AppError('invalid_body', "A rule needs a channel: body field 'channels.inApp' true or a 'channels.webhook'");
}

export async function listRules(deps: AlertDeps, principal: Principal, query: RuleQuery): Promise<RulePage> {
  const request = readPage(query);
  const { rows, total } = await deps.account.alertRules.page(principal.userId, request);
  const page = keysetPage(rows, request, (r) => timestampKey(r.createdAt, r.id), total);
  return { items: page.items.map((r) => ruleView(r)), pagination: page.pagination };
}

export async function getRule(deps: AlertDeps, principal: Principal, id: string): Promise<RuleSchema> {
  const rule = await deps.account.alertRules.get(principal.userId, id);
  if (!rule) throw notYours('alert rule', id);
  return ruleView(rule);
}

export async function createRule(deps: AlertDeps, principal: Principal, body: CreateRuleBody): Promise<RuleSchema> {
  const { symbols, watchlistId } = await target(deps, principal, body);
  const inApp = body.channels?.inApp ?? DEFAULTS.inApp;
  const hook = body.channels?.webhook ? await webhookUrl(deps, principal, body.channels.webhook.url) : null;
  requireChannel(inApp, hook);
  const secret = hook ? newWebhookSecret() : null;
  const now = new Date();
  const cap = deps.config.account.caps.alertRules[principal.tier];
  const created = await deps.account.alertRules.create(
    {
      id: newId('rul'),
      userId: principal.userId,
      name: body.name,
      symbols,
      watchlistId,
      patternTypes: body.patternTypes ?? null,
      minBand: body.minBand ?? null,
      minScore: body.minScore === undefined ? null : storedScore(body.minScore),
      timeframe: body.timeframe ?? DEFAULTS.timeframe,
      direction: body.direction ?? DEFAULTS.direction,
      states: body.states ?? [...DEFAULTS.states],
      cooldownMinutes: body.cooldownMinutes ?? DEFAULTS.cooldownMinutes,
      inApp,
      webhookUrl: hook,
      webhookSecret: secret,
      enabled: body.enabled ?? DEFAULTS.enabled,
      createdAt: now,
      updatedAt: now,
    },
    cap,
  );
  if (!created) throw new AppError('forbidden', `The ${principal.tier} tier allows ${cap} alert rules; delete one or upgrade`);
  return ruleView(created, secret ?? undefined);
}

export async function updateRule(deps: AlertDeps, principal: Principal, id: string, body: UpdateRuleBody): Promise<RuleSchema> {
  const rules = deps.account.alertRules;
  const rule = await rules.get(principal.userId, id);
  if (!rule) throw notYours('alert rule', id);
  const changes: AlertRuleChanges = { updatedAt: new Date() };
  if (body.symbols !== undefined || body.watchlistId !== undefined) Object.assign(changes, await target(deps, principal, body));
  for (const field of ['name', 'patternTypes', 'minBand', 'minScore', 'timeframe', 'direction', 'states', 'cooldownMinutes', 'enabled'] as const) {
    if (body[field] !== undefined) Object.assign(changes, { [field]: field === 'minScore' && typeof body.minScore === 'number' ? storedScore(body.minScore) : body[field] });
  }
  let newSecret: string | undefined;
  const webhook = body.channels?.webhook;
  if (webhook === null) Object.assign(changes, { webhookUrl: null, webhookSecret: null });
  else if (webhook !== undefined) {
    const url = await webhookUrl(deps, principal, webhook.url);
    if (url !== rule.webhookUrl || webhook.rotateSecret) newSecret = newWebhookSecret();
    Object.assign(changes, { webhookUrl: url, ...(newSecret ? { webhookSecret: newSecret } : {}) });
  }
  if (body.channels?.inApp !== undefined) changes.inApp = body.channels.inApp;
  requireChannel(changes.inApp ?? rule.inApp, changes.webhookUrl === undefined ? rule.webhookUrl : changes.webhookUrl);
  const updated = await rules.update(principal.userId, id, changes);
  if (!updated) throw notYours('alert rule', id);
  return ruleView(updated, newSecret);
}

export async function deleteRule(deps: AlertDeps, principal: Principal, id: string): Promise<RuleSchema> {
  const deleted = await deps.account.alertRules.delete(principal.userId, id);
  if (!deleted) throw notYours('alert rule', id);
  return ruleView(deleted);
}

export async function listDeliveries(deps: AlertDeps, principal: Principal, id: string, query: RuleQuery): Promise<DeliveryPage> {
  if (!(await deps.account.alertRules.get(principal.userId, id))) throw notYours('alert rule', id);
  const request = readPage(query);
  const { rows, total } = await deps.account.webhookLog.page(principal.userId, id, request);
  const page = keysetPage(rows, request, (r) => timestampKey(r.createdAt, r.id), total);
  return {
    items: page.items.map((d) => ({
      id: d.id,
      alertId: d.dispatchId,
      url: d.url,
      status: d.status,
      attempts: d.attempts,
      nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
      payload: d.payload,
      createdAt: d.createdAt.toISOString(),
      finishedAt: d.finishedAt?.toISOString() ?? null,
      attemptLog: d.attemptLog.map((a) => ({ attempt: a.attempt, at: a.at.toISOString(), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs })),
    })),
    pagination: page.pagination,
  };
}
