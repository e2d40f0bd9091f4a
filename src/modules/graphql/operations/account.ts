/**
 * @module modules/graphql/operations/account
 * The GraphQL fields over the signed-in user's own objects (watchlists,
 * alert rules, notifications, journal, exports, API keys): reads and writes,
 * each under its REST route's row of the authorisation table.
 */
import { createKey, listKeys, revokeKey } from '../../account/service';
import { ApiKeySchema, CreatedKeySchema, CreateKeyBody, KeyListSchema, KeyParams } from '../../account/model';
import { CreateRuleBody, RulePage, RuleParams, RuleQuery, RuleSchema, UpdateRuleBody } from '../../alerts/model';
import { createRule, deleteRule, getRule, listRules, updateRule } from '../../alerts/service';
import { CreateExportBody, ExportPage, ExportParams, ExportQuery, ExportSchema } from '../../exports/model';
import { createExport, getExport, listExports } from '../../exports/service';
import { CreateEntryBody, EntryPage, EntryParams, EntryQuery, EntrySchema, SummaryQuery, SummarySchema, UpdateEntryBody } from '../../journal/model';
import { createEntry, deleteEntry, getEntry, listEntries, summarize, updateEntry } from '../../journal/service';
import { NotificationPage, NotificationParams, NotificationQuery, NotificationSchema, ReadAllResponse } from '../../notifications/model';
import { listNotifications, markAllRead, markRead } from '../../notifications/service';
import { AddSymbolsBody, CreateWatchlistBody, RenameWatchlistBody, WatchlistPage, WatchlistParams, WatchlistQuery, WatchlistSchema, WatchlistSymbolParams } from '../../watchlists/model';
import { addSymbols, createWatchlist, deleteWatchlist, getWatchlist, listWatchlists, removeSymbol, renameWatchlist } from '../../watchlists/service';
import { join, NONE, operation, type Operation } from '../operation';

export const ACCOUNT_QUERIES: Record<string, Operation> = {
  watchlists: operation({ route: 'GET /api/watchlists', args: WatchlistQuery, result: WatchlistPage, run: ({ services }, q, p) => listWatchlists(services, p, q) }),
  watchlist: operation({ route: 'GET /api/watchlists/:id', args: WatchlistParams, result: WatchlistSchema, run: ({ services }, q, p) => getWatchlist(services, p, q.id) }),
  alertRules: operation({ route: 'GET /api/alerts/v2', args: RuleQuery, result: RulePage, run: ({ services }, q, p) => listRules(services, p, q) }),
  alertRule: operation({ route: 'GET /api/alerts/v2/:id', args: RuleParams, result: RuleSchema, run: ({ services }, q, p) => getRule(services, p, q.id) }),
  notifications: operation({ route: 'GET /api/notifications', args: NotificationQuery, result: NotificationPage, run: ({ services }, q, p) => listNotifications(services, p, q) }),
  journalEntries: operation({ route: 'GET /api/journal/entries', args: EntryQuery, result: EntryPage, run: ({ services }, q, p) => listEntries(services, p, q) }),
  journalEntry: operation({ route: 'GET /api/journal/entries/:id', args: EntryParams, result: EntrySchema, run: ({ services }, q, p) => getEntry(services, p, q.id) }),
  journalSummary: operation({ route: 'GET /api/journal/summary', args: SummaryQuery, result: SummarySchema, run: ({ services }, q, p) => summarize(services, p, q) }),
  exports: operation({ route: 'GET /api/exports', args: ExportQuery, result: ExportPage, run: ({ services }, q, p) => listExports(services, p, q) }),
  export: operation({ route: 'GET /api/exports/:id', args: ExportParams, result: ExportSchema, run: ({ services }, q, p) => getExport(services, p, q.id) }),
  apiKeys: operation({ route: 'GET /api/keys', args: NONE, result: KeyListSchema, run: ({ services }, _q, p) => listKeys(services.auth.keys, p) }),};

export const ACCOUNT_MUTATIONS: Record<string, Operation> = {
  createWatchlist: operation({ route: 'POST /api/watchlists', args: CreateWatchlistBody, result: WatchlistSchema, run: ({ services }, a, p) => createWatchlist(services, p, a) }),
  renameWatchlist: operation({ route: 'PATCH /api/watchlists/:id', args: join(WatchlistParams, RenameWatchlistBody), result: WatchlistSchema, run: ({ services }, { id, ...body }, p) => renameWatchlist(services, p, id, body) }),
  deleteWatchlist: operation({ route: 'DELETE /api/watchlists/:id', args: WatchlistParams, result: WatchlistSchema, run: ({ services }, a, p) => deleteWatchlist(services, p, a.id) }),
  addWatchlistSymbols: operation({ route: 'POST /api/watchlists/:id/symbols', args: join(WatchlistParams, AddSymbolsBody), result: WatchlistSchema, run: ({ services }, { id, ...body }, p) => addSymbols(services, p, id, body) }),
  removeWatchlistSymbol: operation({ route: 'DELETE /api/watchlists/:id/symbols/:symbol', args: WatchlistSymbolParams, result: WatchlistSchema, run: ({ services }, a, p) => removeSymbol(services, p, a.id, a.symbol) }),
  createAlertRule: operation({ route: 'POST /api/alerts/v2', args: CreateRuleBody, result: RuleSchema, run: ({ services }, a, p) => createRule(services, p, a) }),
  updateAlertRule: operation({ route: 'PATCH /api/alerts/v2/:id', args: join(RuleParams, UpdateRuleBody), result: RuleSchema, run: ({ services }, { id, ...body }, p) => updateRule(services, p, id, body) }),
  deleteAlertRule: operation({ route: 'DELETE /api/alerts/v2/:id', args: RuleParams, result: RuleSchema, run: ({ services }, a, p) => deleteRule(services, p, a.id) }),
  markNotificationRead: operation({ route: 'POST /api/notifications/:id/read', args: NotificationParams, result: NotificationSchema, run: ({ services }, a, p) => markRead(services, p, a.id) }),
  markAllNotificationsRead: operation({ route: 'POST /api/notifications/read-all', args: NONE, result: ReadAllResponse, run: ({ services }, _a, p) => markAllRead(services, p) }),
  createJournalEntry: operation({ route: 'POST /api/journal/entries', args: CreateEntryBody, result: EntrySchema, run: ({ services }, a, p) => createEntry(services, p, a) }),
  updateJournalEntry: operation({ route: 'PATCH /api/journal/entries/:id', args: join(EntryParams, UpdateEntryBody), result: EntrySchema, run: ({ services }, { id, ...body }, p) => updateEntry(services, p, id, body) }),
  deleteJournalEntry: operation({ route: 'DELETE /api/journal/entries/:id', args: EntryParams, result: EntrySchema, run: ({ services }, a, p) => deleteEntry(services, p, a.id) }),
  createExport: operation({ route: 'POST /api/exports', args: CreateExportBody, result: ExportSchema, run: ({ services }, a, p) => createExport(services, p, a) }),
  createApiKey: operation({ route: 'POST /api/keys', description: 'a key with admin:keys mints keys only within its own scopes and tier', args: CreateKeyBody, result: CreatedKeySchema, run: ({ services }, a, p) => createKey(services.auth.keys, p, a, services.config.account.caps.apiKeys) }),
  revokeApiKey: operation({ route: 'DELETE /api/keys/:id', args: KeyParams, result: ApiKeySchema, run: ({ services }, a, p) => revokeKey(services.auth.keys, p, a.id) }),};
