/** @module modules/altdata — the AltData tag: insider transactions, short interest, options flow, filings, social mentions. */
import { Elysia } from 'elysia';
import { paginateList, readPage } from '../../pagination';
import type { Services } from '../../services';
import { withErrors } from '../params';
import { insiderActivity } from './insider';
import {
  FilingsPage,
  FilingsQuery,
  FlowQuery,
  InsiderPage,
  InsiderPageQuery,
  InsiderQuery,
  InsiderResponse,
  OptionsFlowResponse,
  ShortInterestPage,
  ShortInterestPageQuery,
  ShortInterestResponse,
  SocialPage,
  SocialQuery,
  SymbolPath,
} from './model';
import { filings, optionsFlowOf, social } from './service';
import { shortInterest } from './short-interest';

const NOT_AVAILABLE = '404 for an unknown symbol, or when no configured source provides this data.';

export function altdataModule(services: Services) {
  const { marketData } = services;
  return new Elysia({ name: 'breakline/altdata' })
    .get('/api/altdata/insider', ({ query }) => insiderActivity(marketData, query.symbol, query.windowDays ?? 30), {
      query: InsiderQuery,
      response: withErrors(InsiderResponse, 400, 404, 429),
      detail: {
        tags: ['AltData'],
        summary: 'Insider transactions and their summary',
        description: `Form 4 transactions with a transaction date in the last \`windowDays\` calendar days (default 30), newest first: insider, role, code (with its meaning), shares, price, value, dates, filing link. \`summary\`: net shares and value of open-market purchases (P) less sales (S), buy/sell counts, distinct buyers/sellers, \`clusterBuying\` when ≥ 3 different insiders bought in the window (with their names), the largest trade; awards, withholding, exercises and gifts are counted per code in \`otherByCode\` but not in the net figures. ${NOT_AVAILABLE}`,
      },
    })
    .get(
      '/api/insider',
      async ({ query }) => {
        const activity = await insiderActivity(marketData, query.symbol, query.windowDays ?? 90);
        const page = paginateList([...activity.transactions].reverse(), readPage(query));
        return { ...activity, transactions: page.items, ...page };
      },
      {
        query: InsiderPageQuery,
        response: withErrors(InsiderPage, 400, 404, 429),
        detail: {
          tags: ['AltData'],
          summary: 'Insider transactions, paginated',
          description: `The insider answer over \`windowDays\` (default 90) with the \`{ items, pagination }\` envelope: \`transactions\` and \`items\` hold the page (newest first by default), \`summary\` covers the whole window. ${NOT_AVAILABLE}`,
        },
      },
    )
    .get(
      '/api/altdata/short-interest',
      async ({ query }) => {
        const { reports: _reports, ...latest } = await shortInterest(marketData, query.symbol);
        return latest;
      },
      {
        query: FlowQuery,
        response: withErrors(ShortInterestResponse, 400, 404, 429),
        detail: {
          tags: ['AltData'],
          summary: 'Short interest and squeeze risk',
          description: `The latest short-interest report (settlement date, shares short, change vs the prior report, % of free float, days to cover = shares short ÷ 20-session average volume) and \`squeezeRisk\` from the weighted score in \`squeeze\`: short % of float 0.4 (0 at 5%, 1 at 30%), days to cover 0.3 (2 → 10), 20-session momentum 0.2 (0% → +25%), borrow utilisation 0.1 (50% → 100%, where reported; otherwise renormalised away); low < 25 ≤ moderate < 50 ≤ elevated < 75 ≤ high. \`snapshot\` is null (and no squeezeRisk) when no report exists, e.g. for funds. ${NOT_AVAILABLE}`,
        },
      },
    )
    .get(
      '/api/short-interest',
      async ({ query }) => {
        const result = await shortInterest(marketData, query.symbol);
        const page = paginateList(result.reports, readPage(query));
        return { ...result, reports: page.items, ...page };
      },
      {
        query: ShortInterestPageQuery,
        response: withErrors(ShortInterestPage, 400, 404, 429),
        detail: {
          tags: ['AltData'],
          summary: 'Short-interest history, paginated',
          description: `Every short-interest report with the same derived figures, newest first by default (\`reports\` and \`items\` hold the page); \`snapshot\`, \`squeezeRisk\` and \`squeeze\` as in /api/altdata/short-interest. ${NOT_AVAILABLE}`,
        },
      },
    )
    .get('/api/altdata/options-flow', ({ query }) => optionsFlowOf(marketData, query.symbol), {
      query: FlowQuery,
      response: withErrors(OptionsFlowResponse, 400, 404, 429),
      detail: {
        tags: ['AltData'],
        summary: 'Unusual options activity and dealer exposure',
        description: `From the current option chain: \`unusual\` contracts (volume ≥ 500 and ≥ 2× open interest), premium (volume × last × 100) by side (last ≥ mid: bought at the ask; below: sold at the bid), call/put ratios by volume, premium and open interest, the largest prints, sweep-like groups (unusual contracts traded at or above the ask, per expiry and type — inferred from aggregates, not trade prints), and net gamma/delta exposure by strike with the gamma flip (dealer convention; Black–Scholes at each contract's IV). \`flow.definition\` states every rule. ${NOT_AVAILABLE}`,
      },
    })
    .get(
      '/api/filings/:symbol',
      async ({ params, query }) => {
        const { source, ascending } = await filings(marketData, params.symbol, query.form);
        const page = paginateList(ascending, readPage(query));
        return { symbol: params.symbol, source, filings: page.items, ...page };
      },
      {
        params: SymbolPath,
        query: FilingsQuery,
        response: withErrors(FilingsPage, 400, 404, 429),
        detail: {
          tags: ['AltData'],
          summary: 'Recent SEC filings',
          description: `Filings of the company (form, filing date, title, link, accession number), newest first by default, optionally only one \`form\` (8-K, 10-Q, 10-K, 4, DEF 14A, …); \`filings\` and \`items\` hold the page. ${NOT_AVAILABLE}`,
        },
      },
    )
    .get(
      '/api/social/:symbol',
      async ({ params, query }) => {
        const { source, ascending, summary } = await social(marketData, params.symbol, query.days ?? 30);
        const page = paginateList(ascending, readPage(query));
        return { symbol: params.symbol, source, days: page.items, summary, ...page };
      },
      {
        params: SymbolPath,
        query: SocialQuery,
        response: withErrors(SocialPage, 400, 404, 429),
        detail: {
          tags: ['AltData'],
          summary: 'Social-media mentions',
          description: `Daily mentions with bullish/bearish counts and sentiment over the last \`days\` calendar days (default 30), newest first by default; \`days\` and \`items\` hold the page. \`summary\` covers the whole window: total mentions, mention-weighted sentiment, and \`velocity\` = mentions of the last 3 days ÷ (3 × the daily average of the earlier days) with its trend (surging ≥ 2, rising ≥ 1.25, fading ≤ 0.75, else steady). The synthetic provider simulates mentions; a live social source is an extension point (a provider implementing \`social\`). ${NOT_AVAILABLE}`,
        },
      },
    );
}
