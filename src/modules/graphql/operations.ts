/**
 * @module modules/graphql/operations
 * Every GraphQL field over a REST operation: its route (whose rate-limit
 * class the field takes: graphql/costs), its arguments (the REST route's
 * query, path and body schemas, checked by them with their defaults and
 * messages), its result (the REST response schema, typed by
 * graphql/types) and the very service function the REST route calls. Who
 * may use a field is its REST route's row of the one authorisation table
 * (auth/route-access), read by graphql/schema: the same scope and tier as
 * the route.
 */
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { accessOf, type Principal } from '../../auth';
import type { ApiVersion } from '../../config';
import { readPage } from '../../pagination';
import type { Services } from '../../services';
import { createKey, listKeys, revokeKey } from '../account/service';
import { ApiKeySchema, CreatedKeySchema, CreateKeyBody, KeyListSchema, KeyParams } from '../account/model';
import { CreateRuleBody, RulePage, RuleParams, RuleQuery, RuleSchema, UpdateRuleBody } from '../alerts/model';
import { createRule, deleteRule, getRule, listRules, updateRule } from '../alerts/service';
import { insiderActivity } from '../altdata/insider';
import { FlowQuery, InsiderQuery, InsiderResponse, OptionsFlowResponse, ShortInterestResponse } from '../altdata/model';
import { optionsFlowOf } from '../altdata/service';
import { latestShortInterest } from '../altdata/short-interest';
import { CreatePostBody, EditPostBody, FeedPage, FeedQuery, PostParams, PostSchema } from '../community/model';
import { createPost, deletePost, editPost, feed, getPost } from '../community/service';
import { CreateExportBody, ExportPage, ExportParams, ExportQuery, ExportSchema } from '../exports/model';
import { createExport, getExport, listExports } from '../exports/service';
import { EarningsQuery, EarningsResponse, FloatQuery, FloatResponse } from '../fundamentals/model';
import { earnings, floatOf } from '../fundamentals/service';
import { CreateEntryBody, EntryPage, EntryParams, EntryQuery, EntrySchema, SummaryQuery, SummarySchema, UpdateEntryBody } from '../journal/model';
import { createEntry, deleteEntry, getEntry, listEntries, summarize, updateEntry } from '../journal/service';
import { macroCalendar } from '../market/macro';
import { BarsQuery, BarsResponse, MacroCalendarQuery, MacroCalendarResponse, SectorRotationResponse, SnapshotQuery, SnapshotResponse } from '../market/model';
import { sectorRotation } from '../market/rotation';
import { barsJson, snapshot } from '../market/service';
import { NotificationPage, NotificationParams, NotificationQuery, NotificationSchema, ReadAllResponse } from '../notifications/model';
import { listNotifications, markAllRead, markRead } from '../notifications/service';
import { AnalyzeQuery, AnalyzeResponse } from '../options/model';
import { analyzeOptions } from '../options/service';
import { confluenceOf } from '../signals/confluence';
import { forecastOf } from '../signals/forecast';
import { signalHistory } from '../signals/history';
import { BreakoutsQuery, BreakoutsResponse, ConfluenceQuery, ConfluenceResponse, ForecastQuery, ForecastResponse, HistoryQuery, HistoryResponse, UniverseScanQuery, UniverseScanResponse } from '../signals/model';
import { breakouts } from '../signals/service';
import { scanUniverse } from '../signals/universe';
import { LedgerQuery, LedgerResponse, MonthlyQuery, MonthlyResponse, ScorecardQuery, ScorecardResponse, CheckpointsResponse, VerifyResponse } from '../transparency/model';
import { monthly, scorecard } from '../transparency/performance';
import { checkpoints, ledgerPage, verification } from '../transparency/service';
import { AddSymbolsBody, CreateWatchlistBody, RenameWatchlistBody, WatchlistPage, WatchlistParams, WatchlistQuery, WatchlistSchema, WatchlistSymbolParams } from '../watchlists/model';
import { addSymbols, createWatchlist, deleteWatchlist, getWatchlist, listWatchlists, removeSymbol, renameWatchlist } from '../watchlists/service';

/** What a resolver gets besides its checked arguments. */
export interface OperationContext {
  services: Services;
  apiVersion: ApiVersion;
}

// Each operation's arguments are decoded by its own schema, so `args` is typed loosely here and exactly by that schema at run time.
type Args = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Operation {
  /** The REST route (`METHOD /path` as the route table has it): the field's rate-limit class is the route's. */
  route: string;
  /** What the field adds to saying its route. */
  description?: string;
  /** The arguments: the REST route's query, path and body properties, in one object schema. */
  args: TObject;
  /** The REST route's 200 (or 201/202) schema. */
  result: TSchema;
  run(ctx: OperationContext, args: Args, principal: Principal): Promise<unknown> | unknown;
  /** The value is plain JSON already (JSON text parsed here, or a value made of JSON values only): not copied through JSON. */
  plain?: true;
}

const NONE = Type.Object({});
/** One argument object from the REST route's path, query and body schemas. */
const join = (...schemas: TObject[]): TObject => Type.Composite(schemas) as TObject;
/** JSON text a REST service already serialised, as the value it stands for. */
const parsed = async (json: Promise<string>): Promise<unknown> => JSON.parse(await json);

export const QUERIES: Record<string, Operation> = {
  breakouts: {
    route: 'GET /api/breakouts', description: 'the ranked signals, alert lists, run history (same answer, same paging); `signals` is the cursor connection over them',
    args: BreakoutsQuery,
    result: BreakoutsResponse,
    run: ({ services }, q) => breakouts(services, q),
    plain: true,
  },
  signalHistory: { route: 'GET /api/breakouts/history', args: HistoryQuery, result: HistoryResponse, run: ({ services }, q) => signalHistory(services.scans, q) },
  bars: { route: 'GET /api/bars', description: 'API-Version applies as in REST', args: BarsQuery, result: BarsResponse, run: ({ services, apiVersion }, q) => parsed(barsJson(services.marketData, q, apiVersion)), plain: true },
  snapshot: { route: 'GET /api/snapshot', args: SnapshotQuery, result: SnapshotResponse, run: ({ services }, q) => snapshot(services.marketData, q.symbol) },
  sectorRotation: { route: 'GET /api/sector-rotation', args: NONE, result: SectorRotationResponse, run: ({ services }) => sectorRotation(services.marketData) },
  macroCalendar: { route: 'GET /api/macro/calendar', args: MacroCalendarQuery, result: MacroCalendarResponse, run: ({ services }, q) => macroCalendar(services.config.macroCalendar, q) },
  confluence: { route: 'GET /api/confluence', args: ConfluenceQuery, result: ConfluenceResponse, run: ({ services }, q) => confluenceOf(services, q) },
  forecast: { route: 'GET /api/forecast', args: ForecastQuery, result: ForecastResponse, run: ({ services }, q) => forecastOf(services, q) },
  universeScan: { route: 'GET /api/universe/scan', args: UniverseScanQuery, result: UniverseScanResponse, run: ({ services }, q) => scanUniverse(services, q) },
  ledger: { route: 'GET /api/transparency/ledger', args: LedgerQuery, result: LedgerResponse, run: ({ services }, q) => ledgerPage(services, q) },
  monthly: { route: 'GET /api/transparency/monthly', args: MonthlyQuery, result: MonthlyResponse, run: ({ services }, q) => monthly(services, q) },
  scorecard: { route: 'GET /api/scorecard', args: ScorecardQuery, result: ScorecardResponse, run: ({ services }, q) => scorecard(services, q) },
  ledgerVerification: { route: 'GET /api/transparency/verify', args: NONE, result: VerifyResponse, run: ({ services }) => verification({ live: services.ledgerVerifier, replay: services.replayVerifier }) },
  ledgerCheckpoints: { route: 'GET /api/transparency/checkpoints', args: NONE, result: CheckpointsResponse, run: ({ services }) => checkpoints(services.ledger) },
  earnings: { route: 'GET /api/earnings', args: EarningsQuery, result: EarningsResponse, run: ({ services }, q) => earnings(services.marketData, q.symbol, readPage(q)) },
  float: { route: 'GET /api/float', args: FloatQuery, result: FloatResponse, run: ({ services }, q) => floatOf(services.marketData, q.symbol) },
  insider: { route: 'GET /api/altdata/insider', args: InsiderQuery, result: InsiderResponse, run: ({ services }, q) => insiderActivity(services.marketData, q.symbol, q.windowDays) },
  optionsFlow: { route: 'GET /api/altdata/options-flow', args: FlowQuery, result: OptionsFlowResponse, run: ({ services }, q) => optionsFlowOf(services.marketData, q.symbol) },
  shortInterest: { route: 'GET /api/altdata/short-interest', args: FlowQuery, result: ShortInterestResponse, run: ({ services }, q) => latestShortInterest(services.marketData, q.symbol) },
  optionsAnalysis: { route: 'GET /api/options/analyze', args: AnalyzeQuery, result: AnalyzeResponse, run: ({ services }, q) => analyzeOptions(services.marketData, services.pool, q) },
  communityFeed: { route: 'GET /api/community/feed', args: FeedQuery, result: FeedPage, run: ({ services }, q) => feed(services, q) },
  communityPost: { route: 'GET /api/community/feed/:id', args: PostParams, result: PostSchema, run: ({ services }, q) => getPost(services, q.id) },
  // The signed-in user's own objects.
  watchlists: { route: 'GET /api/watchlists', args: WatchlistQuery, result: WatchlistPage, run: ({ services }, q, p) => listWatchlists(services, p, q) },
  watchlist: { route: 'GET /api/watchlists/:id', args: WatchlistParams, result: WatchlistSchema, run: ({ services }, q, p) => getWatchlist(services, p, q.id) },
  alertRules: { route: 'GET /api/alerts/v2', args: RuleQuery, result: RulePage, run: ({ services }, q, p) => listRules(services, p, q) },
  alertRule: { route: 'GET /api/alerts/v2/:id', args: RuleParams, result: RuleSchema, run: ({ services }, q, p) => getRule(services, p, q.id) },
  notifications: { route: 'GET /api/notifications', args: NotificationQuery, result: NotificationPage, run: ({ services }, q, p) => listNotifications(services, p, q) },
  journalEntries: { route: 'GET /api/journal/entries', args: EntryQuery, result: EntryPage, run: ({ services }, q, p) => listEntries(services, p, q) },
  journalEntry: { route: 'GET /api/journal/entries/:id', args: EntryParams, result: EntrySchema, run: ({ services }, q, p) => getEntry(services, p, q.id) },
  journalSummary: { route: 'GET /api/journal/summary', args: SummaryQuery, result: SummarySchema, run: ({ services }, q, p) => summarize(services, p, q) },
  exports: { route: 'GET /api/exports', args: ExportQuery, result: ExportPage, run: ({ services }, q, p) => listExports(services, p, q) },
  export: { route: 'GET /api/exports/:id', args: ExportParams, result: ExportSchema, run: ({ services }, q, p) => getExport(services, p, q.id) },
  apiKeys: { route: 'GET /api/keys', args: NONE, result: KeyListSchema, run: ({ services }, _q, p) => listKeys(services.auth.keys, p) },
};

/** What a field's documentation says: its route, what the field adds, and what its row of the authorisation table asks. */
export const describe = (op: Operation): string => {
  const access = accessOf(op.route);
  const needs = access ? `; needs a session or an API key with '${access.scope}'${access.tier ? `, ${access.tier} tier or above` : ''}` : '';
  return `${op.description ? `${op.route}: ${op.description}` : op.route}${needs}`;
};

/** Mutations: each over a REST write, under that write's row of the authorisation table. */
export const MUTATIONS: Record<string, Operation> = {
  createWatchlist: { route: 'POST /api/watchlists', args: CreateWatchlistBody, result: WatchlistSchema, run: ({ services }, a, p) => createWatchlist(services, p, a) },
  renameWatchlist: { route: 'PATCH /api/watchlists/:id', args: join(WatchlistParams, RenameWatchlistBody), result: WatchlistSchema, run: ({ services }, { id, ...body }, p) => renameWatchlist(services, p, id, body) },
  deleteWatchlist: { route: 'DELETE /api/watchlists/:id', args: WatchlistParams, result: WatchlistSchema, run: ({ services }, a, p) => deleteWatchlist(services, p, a.id) },
  addWatchlistSymbols: { route: 'POST /api/watchlists/:id/symbols', args: join(WatchlistParams, AddSymbolsBody), result: WatchlistSchema, run: ({ services }, { id, ...body }, p) => addSymbols(services, p, id, body) },
  removeWatchlistSymbol: { route: 'DELETE /api/watchlists/:id/symbols/:symbol', args: WatchlistSymbolParams, result: WatchlistSchema, run: ({ services }, a, p) => removeSymbol(services, p, a.id, a.symbol) },
  createAlertRule: { route: 'POST /api/alerts/v2', args: CreateRuleBody, result: RuleSchema, run: ({ services }, a, p) => createRule(services, p, a) },
  updateAlertRule: { route: 'PATCH /api/alerts/v2/:id', args: join(RuleParams, UpdateRuleBody), result: RuleSchema, run: ({ services }, { id, ...body }, p) => updateRule(services, p, id, body) },
  deleteAlertRule: { route: 'DELETE /api/alerts/v2/:id', args: RuleParams, result: RuleSchema, run: ({ services }, a, p) => deleteRule(services, p, a.id) },
  markNotificationRead: { route: 'POST /api/notifications/:id/read', args: NotificationParams, result: NotificationSchema, run: ({ services }, a, p) => markRead(services, p, a.id) },
  markAllNotificationsRead: { route: 'POST /api/notifications/read-all', args: NONE, result: ReadAllResponse, run: ({ services }, _a, p) => markAllRead(services, p) },
  createJournalEntry: { route: 'POST /api/journal/entries', args: CreateEntryBody, result: EntrySchema, run: ({ services }, a, p) => createEntry(services, p, a) },
  updateJournalEntry: { route: 'PATCH /api/journal/entries/:id', args: join(EntryParams, UpdateEntryBody), result: EntrySchema, run: ({ services }, { id, ...body }, p) => updateEntry(services, p, id, body) },
  deleteJournalEntry: { route: 'DELETE /api/journal/entries/:id', args: EntryParams, result: EntrySchema, run: ({ services }, a, p) => deleteEntry(services, p, a.id) },
  createExport: { route: 'POST /api/exports', args: CreateExportBody, result: ExportSchema, run: ({ services }, a, p) => createExport(services, p, a) },
  createCommunityPost: { route: 'POST /api/community/feed', args: CreatePostBody, result: PostSchema, run: ({ services }, a, p) => createPost(services, p, a) },
  editCommunityPost: { route: 'PATCH /api/community/feed/:id', args: join(PostParams, EditPostBody), result: PostSchema, run: ({ services }, { id, ...body }, p) => editPost(services, p, id, body) },
  deleteCommunityPost: { route: 'DELETE /api/community/feed/:id', args: PostParams, result: PostSchema, run: ({ services }, a, p) => deletePost(services, p, a.id) },
  createApiKey: { route: 'POST /api/keys', description: 'a key with admin:keys mints keys only within its own scopes and tier', args: CreateKeyBody, result: CreatedKeySchema, run: ({ services }, a, p) => createKey(services.auth.keys, p, a, services.config.account.caps.apiKeys) },
  revokeApiKey: { route: 'DELETE /api/keys/:id', args: KeyParams, result: ApiKeySchema, run: ({ services }, a, p) => revokeKey(services.auth.keys, p, a.id) },
};
