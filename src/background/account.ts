/**
 * @module background/account
 * The account features' services, built once by the composition root
 * (services.ts): a user's watchlists, alert rules and their dispatch after
 * every persisted run, notifications, journal, exports and their background
 * maker, community posts, idempotency keys, and the webhook sender with its
 * delivery log. Here, beside the two background loops it builds (the export
 * maker, the webhook sender), so that jobs/ never imports a loop.
 */
import { readFileSync } from 'node:fs';
import pkg from '../../package.json' with { type: 'json' };
import type { Config } from '../config';
import type { Database } from '../db/client';
import { AlertDispatchesRepository } from '../db/repositories/alert-dispatches';
import { AlertRulesRepository } from '../db/repositories/alert-rules';
import { CommunityRepository } from '../db/repositories/community';
import { ExportsRepository } from '../db/repositories/exports';
import { IdempotencyRepository } from '../db/repositories/idempotency';
import { JournalRepository } from '../db/repositories/journal';
import type { LedgerRepository } from '../db/repositories/ledger';
import { NotificationsRepository } from '../db/repositories/notifications';
import type { ScansRepository } from '../db/repositories/scans';
import type { StreamEventsRepository } from '../db/repositories/stream-events';
import { WatchlistsRepository } from '../db/repositories/watchlists';
import { WebhooksRepository } from '../db/repositories/webhooks';
import { ExportJobs } from './exports';
import { WebhookSender } from './webhooks';
import type { Logger } from '../log';
import type { EventBus } from '../stream/bus';
import { AlertRuleDispatcher } from '../jobs/alert-rules';

export interface Account {
  watchlists: WatchlistsRepository;
  alertRules: AlertRulesRepository;
  notifications: NotificationsRepository;
  journal: JournalRepository;
  exports: ExportsRepository;
  community: CommunityRepository;
  idempotency: IdempotencyRepository;
  webhookLog: WebhooksRepository;
  /** Fires alert rules after every persisted run (SignalRuns calls it). */
  dispatcher: AlertRuleDispatcher;
  /** Sends webhook deliveries in the background, with retries. */
  webhooks: WebhookSender;
  /** Makes and expires export files in the background. */
  exportJobs: ExportJobs;
}

/** The account services over one database; the webhook sender takes its settings from `config.account.webhooks`. */
export function createAccount(config: Config, db: Database['db'], deps: { scans: ScansRepository; ledger: LedgerRepository; streamEvents: StreamEventsRepository; bus: EventBus; log: Logger }): Account {
  const { webhooks: hooks, exportTtlMs } = config.account;
  const watchlists = new WatchlistsRepository(db);
  const alertRules = new AlertRulesRepository(db);
  const journal = new JournalRepository(db);
  const exports = new ExportsRepository(db);
  const webhookLog = new WebhooksRepository(db);
  const webhooks = new WebhookSender({
    repository: webhookLog,
    secretOf: (ruleId) => alertRules.secretOf(ruleId),
    allowPrivate: hooks.allowPrivate,
    extraCa: hooks.caFile ? readFileSync(hooks.caFile, 'utf8') : undefined,
    timeoutMs: hooks.timeoutMs,
    maxAttempts: hooks.maxAttempts,
    backoffMs: hooks.backoffMs,
    userAgent: `Breakline-Webhooks/${pkg.version}`,
    log: deps.log,
  });
  return {
    watchlists,
    alertRules,
    notifications: new NotificationsRepository(db),
    journal,
    exports,
    community: new CommunityRepository(db),
    idempotency: new IdempotencyRepository(db),
    webhookLog,
    dispatcher: new AlertRuleDispatcher({ rules: alertRules, watchlists, dispatches: new AlertDispatchesRepository(db, deps.streamEvents), bus: deps.bus, webhooks, log: deps.log }),
    webhooks,
    exportJobs: new ExportJobs({ exports, ledger: deps.ledger, journal, scans: deps.scans, log: deps.log, ttlMs: exportTtlMs }),
  };
}
