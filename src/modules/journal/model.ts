/** @module modules/journal/model — schemas and OpenAPI text of /api/journal (a user's trade journal and its summary). */
import { t, type Static } from 'elysia';
import { DIRECTIONS, literalUnion } from '../../domain/signal';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { BodySymbol, idParam, Timestamps } from '../shared/account';
import { PerformanceSchema, SymbolParam } from '../shared/params';

export const MAX_NOTES_LENGTH = 4000;
export const MAX_TAGS = 20;
const TAG_PATTERN = '^[A-Za-z0-9][A-Za-z0-9 _.:/#+-]{0,39}$';

const Price = (field: string, description: string) => t.Number({ exclusiveMinimum: 0, maximum: 1e9, description, error: `Body field '${field}' must be a price > 0` });
const Time = (field: string, description: string) => t.String({ format: 'date-time', description, error: `Body field '${field}' must be an RFC 3339 date-time, e.g. 2026-11-20T14:30:00Z` });
const fields = {
  symbol: BodySymbol,
  side: { ...literalUnion(DIRECTIONS), description: 'long or short', error: "Body field 'side' must be long or short" },
  entryPrice: Price('entryPrice', 'Average entry price'),
  entryAt: Time('entryAt', 'When the position was opened'),
  exitPrice: Price('exitPrice', 'Average exit price (with exitAt; absent while the position is open)'),
  exitAt: Time('exitAt', 'When the position was closed (with exitPrice)'),
  size: t.Number({ exclusiveMinimum: 0, maximum: 1e12, description: 'Shares or contracts', error: "Body field 'size' must be a number > 0" }),
  fees: t.Number({ minimum: 0, maximum: 1e12, description: 'Fees of both legs together; default 0', error: "Body field 'fees' must be a number ≥ 0" }),
  notes: t.String({ maxLength: MAX_NOTES_LENGTH, description: `Up to ${MAX_NOTES_LENGTH} characters`, error: `Body field 'notes' must be at most ${MAX_NOTES_LENGTH} characters` }),
  tags: t.Array(t.String({ pattern: TAG_PATTERN }), { maxItems: MAX_TAGS, uniqueItems: true, description: `Up to ${MAX_TAGS} tags, e.g. earnings, A+ setup`, error: `Body field 'tags' must be up to ${MAX_TAGS} different tags of 1–40 letters, digits or ' _.:/#+-'` }),
  signalId: t.String({ minLength: 1, maxLength: 200, description: 'The signal you traded (SYMBOL-pattern-detectedAt, as /api/breakouts lists it): its stop gives the R-multiple', error: "Body field 'signalId' must be a signal id" }),
};

const EXAMPLE_IN = { symbol: 'NVDA', side: 'long', entryPrice: 151.4, entryAt: '2026-11-18T15:02:00Z', exitPrice: 163.9, exitAt: '2026-11-27T19:40:00Z', size: 100, fees: 2.5, notes: 'Bought the pivot on volume', tags: ['flat base', 'A+'], signalId: 'NVDA-flat_base-2026-11-18T00:00:00.000Z' };

export const CreateEntryBody = t.Object(
  {
    symbol: fields.symbol,
    side: fields.side,
    entryPrice: fields.entryPrice,
    entryAt: fields.entryAt,
    exitPrice: t.Optional(fields.exitPrice),
    exitAt: t.Optional(fields.exitAt),
    size: fields.size,
    fees: t.Optional(fields.fees),
    notes: t.Optional(fields.notes),
    tags: t.Optional(fields.tags),
    signalId: t.Optional(fields.signalId),
  },
  { additionalProperties: false, examples: [EXAMPLE_IN] },
);
export type CreateEntryBody = Static<typeof CreateEntryBody>;

export const UpdateEntryBody = t.Object(
  {
    symbol: t.Optional(fields.symbol),
    side: t.Optional(fields.side),
    entryPrice: t.Optional(fields.entryPrice),
    entryAt: t.Optional(fields.entryAt),
    exitPrice: t.Optional(t.Union([fields.exitPrice, t.Null()])),
    exitAt: t.Optional(t.Union([fields.exitAt, t.Null()])),
    size: t.Optional(fields.size),
    fees: t.Optional(fields.fees),
    notes: t.Optional(fields.notes),
    tags: t.Optional(fields.tags),
    signalId: t.Optional(t.Union([fields.signalId, t.Null()])),
  },
  { additionalProperties: false, description: 'Only the fields sent change; exitPrice and exitAt null (together) reopen the position', examples: [{ exitPrice: 163.9, exitAt: '2026-11-27T19:40:00Z' }] },
);
export type UpdateEntryBody = Static<typeof UpdateEntryBody>;

export const EntryParams = t.Object({ id: idParam('jrn', 'journal entry') });
export const EntryQuery = t.Object({
  ...PageQuery,
  symbol: t.Optional(SymbolParam),
  tag: t.Optional(t.String({ pattern: TAG_PATTERN, description: 'Only entries with this tag', error: "Query parameter 'tag' must be a tag" })),
});
export type EntryQuery = Static<typeof EntryQuery>;
export const SummaryQuery = t.Object({ symbol: t.Optional(SymbolParam), tag: EntryQuery.properties.tag });
export type SummaryQuery = Static<typeof SummaryQuery>;

const NullableNumber = (description: string) => t.Union([t.Number(), t.Null()], { description });
export const EntrySchema = t.Object(
  {
    id: t.String({ description: 'jrn_…' }),
    symbol: t.String(),
    side: literalUnion(DIRECTIONS),
    entryPrice: t.Number(),
    entryAt: t.String({ format: 'date-time' }),
    exitPrice: NullableNumber('null while open'),
    exitAt: t.Union([t.String({ format: 'date-time' }), t.Null()]),
    size: t.Number(),
    fees: t.Number(),
    notes: t.String(),
    tags: t.Array(t.String()),
    signalId: t.Union([t.String(), t.Null()]),
    status: t.Union([t.Literal('open'), t.Literal('closed')]),
    pnl: NullableNumber('(exit − entry) × size × (+1 long, −1 short) − fees; null while open'),
    returnPct: NullableNumber('Price move in the trade’s favour, % of entry, before fees'),
    stopLoss: NullableNumber('The linked signal’s stop'),
    initialRisk: NullableNumber('|entry − stop| × size'),
    rMultiple: NullableNumber('pnl ÷ initialRisk (fees count against R); null without a linked stop or while open'),
    holdingDays: t.Union([t.Integer(), t.Null()], { description: 'Calendar days from entry to exit (UTC), as the ledger counts daysHeld' }),
    ...Timestamps,
  },
  {
    title: 'JournalEntry',
    examples: [{ id: 'jrn_6d1k9x3c0v7b2n5m8q4w', ...EXAMPLE_IN, status: 'closed', pnl: 1247.5, returnPct: 8.2563, stopLoss: 144.9, initialRisk: 650, rMultiple: 1.9192, holdingDays: 9, createdAt: '2026-11-27T20:00:00.000Z', updatedAt: '2026-11-27T20:00:00.000Z' }],
  },
);
export type EntrySchema = Static<typeof EntrySchema>;
export const EntryPage = t.Object({ items: t.Array(EntrySchema), pagination: PageMetaSchema }, { title: 'JournalEntryPage' });
export type EntryPage = Static<typeof EntryPage>;

const Interval = t.Object({ lower: t.Union([t.Number(), t.Null()]), upper: t.Union([t.Number(), t.Null()]) });
export const SummarySchema = t.Object(
  {
    entries: t.Integer(),
    open: t.Integer(),
    closed: t.Integer(),
    wins: t.Integer({ description: 'Closed with pnl > 0' }),
    losses: t.Integer(),
    breakeven: t.Integer(),
    winRate: NullableNumber('wins ÷ closed'),
    winRateInterval: t.Object({ lower: t.Union([t.Number(), t.Null()]), upper: t.Union([t.Number(), t.Null()]) }, { description: 'Wilson 95%' }),
    pnl: t.Object({
      total: t.Number(),
      fees: t.Number(),
      average: NullableNumber('Mean pnl per closed trade'),
      averageInterval: Interval,
      averageWin: NullableNumber('Mean pnl of winners'),
      averageLoss: NullableNumber('Mean |pnl| of losers'),
      expectancy: NullableNumber('winRate × averageWin − lossRate × averageLoss, per trade (Tharp)'),
      profitFactor: NullableNumber('Σ wins ÷ |Σ losses|; null without losses'),
    }),
    avgHoldingDays: NullableNumber('Mean holding days of closed trades'),
    withoutStop: t.Integer({ description: 'Closed entries without a linked signal’s stop (not in r)' }),
    r: PerformanceSchema,
  },
  {
    title: 'JournalSummary',
    description: 'Like the public scorecard (GET /api/scorecard), over your journal: r holds the same figures, by the same definitions, over the entries whose linked signal gives a stop.',
    // journalSummary over four entries (three closed, two with a linked stop, one open with a stop).
    examples: [
      {
        entries: 4, open: 1, closed: 3, wins: 2, losses: 1, breakeven: 0, winRate: 0.6667, winRateInterval: { lower: 0.2077, upper: 0.9385 },
        pnl: { total: 827.5, fees: 8.5, average: 275.833333, averageInterval: { lower: -2308.918919, upper: 2860.585586 }, averageWin: 824.75, averageLoss: 822, expectancy: 275.833333, profitFactor: 2.0067 },
        avgHoldingDays: 6.67,
        withoutStop: 1,
        r: { signals: 3, open: 1, closed: 2, wins: 1, losses: 1, scratches: 0, neverEntered: 0, hitRate: 0.5, hitRateInterval: { lower: 0.0546, upper: 0.9454 }, avgR: 0.3174, avgRInterval: { lower: -20.0354, upper: 20.6702 }, totalR: 0.6348, expectancyR: 0.3174, profitFactor: 1.4942, avgDaysHeld: 6.5 },
      },
    ],
  },
);
export type SummarySchema = Static<typeof SummarySchema>;

const TAGS = ['Journal'];
export const JOURNAL_DOCS = {
  list: { tags: TAGS, summary: 'Your journal entries', description: 'Newest entry time first, in the pagination envelope, each with its computed figures (pnl, returnPct, R from the linked signal’s stop, holding days). Filter by symbol or tag. A session or an API key.' },
  get: { tags: TAGS, summary: 'One journal entry', description: 'Another user’s entry is 404. A session or an API key.' },
  create: { tags: TAGS, summary: 'Record a trade', description: 'An open position (no exit yet) or a closed one. A linked signalId must be a signal Breakline surfaced for the same symbol (400 otherwise). Needs a session. Send Idempotency-Key to make a retry safe.' },
  update: { tags: TAGS, summary: 'Change a journal entry', description: 'Close a position (exitPrice and exitAt), fix a price, retag. Needs a session; another user’s entry is 404.' },
  delete: { tags: TAGS, summary: 'Delete a journal entry', description: 'Needs a session; another user’s entry is 404.' },
  summary: { tags: TAGS, summary: 'Your journal’s track record', description: 'Win rate with its Wilson interval, P&L total, mean (Student-t interval), expectancy and profit factor over closed trades, holding time, and — over entries linked to a signal with a stop — the scorecard’s R figures. A session or an API key.' },
};
