/** @module modules/watchlists/model — schemas and OpenAPI text of /api/watchlists. */
import { t, type Static } from 'elysia';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { BREAKOUT_STATES, DIRECTIONS, literalUnion } from '../../domain/signal';
import { idParam, symbolList, Timestamps } from '../shared/account';
import { SYMBOL_PATTERN } from '../shared/params';

export const MAX_NAME_LENGTH = 100;
/** The longest symbol list one request may send (the tier's cap still applies). */
export const MAX_SYMBOLS_PER_REQUEST = 500;

const Name = t.String({ minLength: 1, maxLength: MAX_NAME_LENGTH, description: 'The watchlist’s name', examples: ['Semis'], error: `Body field 'name' must be 1–${MAX_NAME_LENGTH} characters` });

export const CreateWatchlistBody = t.Object(
  {
    name: Name,
    symbols: t.Optional(symbolList('symbols', 0, MAX_SYMBOLS_PER_REQUEST, 'Its first symbols (checked against the provider); at most your tier’s cap')),
  },
  { additionalProperties: false, examples: [{ name: 'Semis', symbols: ['NVDA', 'AMD', 'AVGO'] }] },
);
export type CreateWatchlistBody = Static<typeof CreateWatchlistBody>;

export const RenameWatchlistBody = t.Object({ name: Name }, { additionalProperties: false, examples: [{ name: 'Chips' }] });
export type RenameWatchlistBody = Static<typeof RenameWatchlistBody>;

export const AddSymbolsBody = t.Object(
  { symbols: symbolList('symbols', 1, MAX_SYMBOLS_PER_REQUEST, 'Symbols to add (those already there stay as they are)') },
  { additionalProperties: false, examples: [{ symbols: ['MU', 'QCOM'] }] },
);
export type AddSymbolsBody = Static<typeof AddSymbolsBody>;

export const WatchlistParams = t.Object({ id: idParam('wl', 'watchlist') });
export const WatchlistSymbolParams = t.Object({
  id: idParam('wl', 'watchlist'),
  symbol: t.String({ pattern: SYMBOL_PATTERN, description: 'The symbol to remove', examples: ['AMD'], error: `Path parameter 'symbol' must match ${SYMBOL_PATTERN}` }),
});
export const WatchlistQuery = t.Object(PageQuery);
export type WatchlistQuery = Static<typeof WatchlistQuery>;

/** A symbol's newest persisted signal, in short. */
export const LatestSignalSchema = t.Object(
  {
    id: t.String({ description: 'SYMBOL-pattern-detectedAt' }),
    timeframe: t.String({ examples: ['daily'] }),
    patternType: t.String({ examples: ['flat_base'] }),
    direction: literalUnion(DIRECTIONS),
    breakoutState: literalUnion(BREAKOUT_STATES),
    finalScore: t.Number(),
    scoreBand: t.String({ examples: ['strong'] }),
    triggerPrice: t.Number(),
    target1: t.Number(),
    stopLoss: t.Union([t.Number(), t.Null()]),
    detectedAt: t.String({ format: 'date-time' }),
  },
  { title: 'LatestSignal' },
);

export const WatchlistSchema = t.Object(
  {
    id: t.String({ description: 'wl_…' }),
    name: t.String(),
    symbols: t.Array(
      t.Object({
        symbol: t.String(),
        latestSignal: t.Union([LatestSignalSchema, t.Null()], { description: 'The symbol’s newest signal of any timeframe and state; null when none was ever surfaced' }),
      }),
      { description: 'In the order they were added' },
    ),
    ...Timestamps,
  },
  {
    title: 'Watchlist',
    examples: [
      {
        id: 'wl_8k2qd0xw5n3c7v1b9m4f',
        name: 'Semis',
        symbols: [
          {
            symbol: 'NVDA',
            latestSignal: {
              id: 'NVDA-flat_base-2026-11-18T00:00:00.000Z',
              timeframe: 'daily',
              patternType: 'flat_base',
              direction: 'long',
              breakoutState: 'triggered',
              finalScore: 78.4,
              scoreBand: 'strong',
              triggerPrice: 151.2,
              target1: 166.3,
              stopLoss: 144.9,
              detectedAt: '2026-11-18T00:00:00.000Z',
            },
          },
          { symbol: 'AMD', latestSignal: null },
        ],
        createdAt: '2026-11-20T14:02:11.000Z',
        updatedAt: '2026-11-20T14:02:11.000Z',
      },
    ],
  },
);
export type WatchlistSchema = Static<typeof WatchlistSchema>;

export const WatchlistPage = t.Object({ items: t.Array(WatchlistSchema), pagination: PageMetaSchema }, { title: 'WatchlistPage' });
export type WatchlistPage = Static<typeof WatchlistPage>;

const TAGS = ['Watchlists'];
const CAPS = 'Caps per tier (WATCHLISTS_PER_TIER, WATCHLIST_SYMBOLS_PER_TIER; default free 3 × 25, pro 20 × 100, enterprise 100 × 500): past one, 403.';
export const WATCHLIST_DOCS = {
  list: { tags: TAGS, summary: 'List your watchlists', description: 'Your watchlists (never another user’s), newest first, in the pagination envelope (keyset cursor over creation time), each symbol with its newest persisted signal. A session or an API key.' },
  get: { tags: TAGS, summary: 'One of your watchlists', description: 'A watchlist of yours with each symbol’s newest signal; another user’s is 404. A session or an API key.' },
  create: { tags: TAGS, summary: 'Create a watchlist', description: `A named list of symbols, each checked against the provider (400 naming an unknown one). ${CAPS} Needs a session. Send Idempotency-Key to make a retry safe.` },
  rename: { tags: TAGS, summary: 'Rename a watchlist', description: 'Needs a session; another user’s watchlist is 404.' },
  delete: { tags: TAGS, summary: 'Delete a watchlist', description: 'Deletes it with its symbols; answers it as it was. A watchlist an alert rule still watches is 409 (naming the rules). Needs a session.' },
  addSymbols: { tags: TAGS, summary: 'Add symbols to a watchlist', description: `Symbols already there stay as they were. ${CAPS} Needs a session. Send Idempotency-Key to make a retry safe.` },
  removeSymbol: { tags: TAGS, summary: 'Remove a symbol from a watchlist', description: 'A symbol the watchlist does not hold is 404. Needs a session.' },
};
