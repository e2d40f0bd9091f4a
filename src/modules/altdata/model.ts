/** @module modules/altdata/model — schemas of the AltData tag: insiders, short interest, options flow, filings, social. */
import { t } from 'elysia';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { intParam, SymbolParam } from '../shared/params';

const Open = t.Record(t.String(), t.Any());
const Num = t.Union([t.Number(), t.Null()]);

export const SymbolPath = t.Object({ symbol: SymbolParam });

export const InsiderTransaction = t.Object(
  {
    insider: t.String(),
    role: t.String(),
    code: t.String({ description: 'SEC Form 4 transaction code' }),
    codeDescription: t.String(),
    acquiredDisposed: t.String({ description: 'A acquired, D disposed' }),
    shares: t.Number(),
    price: Num,
    value: Num,
    date: t.String({ format: 'date', description: 'Transaction date' }),
    filingDate: t.String({ format: 'date' }),
    filingUrl: t.Union([t.String(), t.Null()]),
  },
  { title: 'InsiderTransaction' },
);

/** The window's open-market trades summed (altdata/insider's insiderSummary). */
const InsiderSummary = t.Object(
  {
    buyCount: t.Integer(),
    sellCount: t.Integer(),
    sharesBought: t.Number(),
    sharesSold: t.Number(),
    netShares: t.Number(),
    valueBought: t.Number(),
    valueSold: t.Number(),
    netValue: t.Number(),
    distinctBuyers: t.Integer(),
    distinctSellers: t.Integer(),
    clusterBuying: t.Boolean({ description: 'At least clusterThreshold distinct insiders bought' }),
    clusterBuyers: t.Array(t.String()),
    clusterThreshold: t.Integer(),
    largestTransaction: t.Union([InsiderTransaction, t.Null()]),
    otherByCode: t.Record(t.String(), t.Object({ count: t.Integer(), shares: t.Number({ description: 'Net: acquired − disposed' }) }), { description: 'Per other Form 4 code (awards, withholding, exercises, gifts)' }),
    counts: t.String(),
  },
  { title: 'InsiderSummary' },
);

export const InsiderQuery = t.Object({ symbol: SymbolParam, windowDays: intParam('windowDays', 1, 730, 30, 'Calendar days back from today') });
export const InsiderPageQuery = t.Object({ symbol: SymbolParam, windowDays: intParam('windowDays', 1, 730, 90, 'Calendar days back from today'), ...PageQuery });

const insiderFields = {
  symbol: t.String(),
  windowDays: t.Integer(),
  from: t.String({ format: 'date' }),
  to: t.String({ format: 'date' }),
  source: t.String(),
  transactions: t.Array(InsiderTransaction),
  summary: InsiderSummary,
};
export const InsiderResponse = t.Object(insiderFields, { title: 'InsiderResponse' });
export const InsiderPage = t.Object({ ...insiderFields, items: t.Array(InsiderTransaction), pagination: PageMetaSchema }, { title: 'InsiderPage' });

export const ShortInterestReport = t.Object(
  {
    settlementDate: t.String({ format: 'date' }),
    sharesShort: t.Number(),
    previousSharesShort: Num,
    change: Num,
    changePct: Num,
    percentOfFloat: t.Union([t.Number(), t.Null()], { description: 'Shares short ÷ free float, %' }),
    avgDailyVolume: Num,
    daysToCover: Num,
    source: t.String(),
  },
  { title: 'ShortInterestReport' },
);
const SqueezeRisk = t.Union(['low', 'moderate', 'elevated', 'high'].map((v) => t.Literal(v)));
/** The squeeze score of the latest report (kernels/squeeze) and what it rests on. */
const SqueezeScore = t.Object(
  {
    score: t.Union([t.Number(), t.Null()], { description: '0–100, null when no component is known' }),
    momentumAsOf: t.Union([t.String({ description: 'YYYY-MM-DD: the session the momentum is read at' }), t.Null()]),
    components: t.Array(
      t.Object(
        {
          key: t.Union(['shortPercentFloat', 'daysToCover', 'momentum', 'utilisation'].map((v) => t.Literal(v))),
          value: Num,
          score: t.Union([t.Number(), t.Null()], { description: 'The value mapped onto [0, 1]; null when unknown' }),
          weight: t.Number(),
          effectiveWeight: t.Number({ description: 'The weight renormalised over the known components (0 when unknown)' }),
        },
        { title: 'SqueezeComponent' },
      ),
    ),
    bands: t.String(),
    note: t.String(),
    freeFloat: Num,
  },
  { title: 'SqueezeScore' },
);
const shortFields = {
  symbol: t.String(),
  source: t.String(),
  snapshot: t.Union([ShortInterestReport, t.Null()]),
  squeezeRisk: t.Optional(SqueezeRisk),
  squeeze: t.Union([SqueezeScore, t.Null()]),
};
export const ShortInterestResponse = t.Object(shortFields, { title: 'ShortInterestResponse' });
export const ShortInterestPage = t.Object({ ...shortFields, reports: t.Array(ShortInterestReport), items: t.Array(ShortInterestReport), pagination: PageMetaSchema }, { title: 'ShortInterestPage' });
export const ShortInterestPageQuery = t.Object({ symbol: SymbolParam, ...PageQuery });

export const Filing = t.Object(
  { form: t.String(), filedAt: t.String({ format: 'date' }), title: t.String(), url: t.String(), accessionNumber: t.String(), source: t.String() },
  { title: 'Filing' },
);
export const FilingsQuery = t.Object({
  form: t.Optional(t.String({ pattern: '^[A-Za-z0-9 /-]{1,12}$', description: 'Only this form type, e.g. 8-K, 10-Q, 4', error: "Query parameter 'form' must be a form type such as 8-K, 10-Q or 4" })),
  ...PageQuery,
});
export const FilingsPage = t.Object(
  { symbol: t.String(), source: t.String(), filings: t.Array(Filing), items: t.Array(Filing), pagination: PageMetaSchema },
  { title: 'FilingsPage' },
);

export const SocialDay = t.Object(
  { date: t.String({ format: 'date' }), mentions: t.Integer(), bullish: t.Integer(), bearish: t.Integer(), sentiment: t.Number({ minimum: -1, maximum: 1 }) },
  { title: 'SocialDay' },
);
export const SocialQuery = t.Object({ days: intParam('days', 1, 365, 30, 'Calendar days of mentions ending today'), ...PageQuery });
export const SocialPage = t.Object(
  { symbol: t.String(), days: t.Array(SocialDay), summary: Open, source: t.String(), items: t.Array(SocialDay), pagination: PageMetaSchema },
  { title: 'SocialPage' },
);

export const FlowQuery = t.Object({ symbol: SymbolParam });
export const OptionsFlowResponse = t.Object({ symbol: t.String(), flow: Open }, { title: 'OptionsFlowResponse' });

const NOT_AVAILABLE = '404 for an unknown symbol, or when no configured source provides this data.';

/** OpenAPI text of the AltData routes. */
export const ALTDATA_DOCS = {
  insider: {
    tags: ['AltData'],
    summary: 'Insider transactions and their summary',
    description: `Form 4 transactions with a transaction date in the last \`windowDays\` calendar days (default 30), newest first: insider, role, code (with its meaning), shares, price, value, dates, filing link. \`summary\`: net shares and value of open-market purchases (P) less sales (S), buy/sell counts, distinct buyers/sellers, \`clusterBuying\` when ≥ 3 different insiders bought in the window (with their names), the largest trade; awards, withholding, exercises and gifts are counted per code in \`otherByCode\` but not in the net figures. ${NOT_AVAILABLE}`,
  },
  insiderPage: {
    tags: ['AltData'],
    summary: 'Insider transactions, paginated',
    description: `The insider answer over \`windowDays\` (default 90) with the \`{ items, pagination }\` envelope: \`transactions\` and \`items\` hold the page (newest first by default), \`summary\` covers the whole window. ${NOT_AVAILABLE}`,
  },
  shortInterest: {
    tags: ['AltData'],
    summary: 'Short interest and squeeze risk',
    description: `The latest short-interest report (settlement date, shares short, change vs the prior report, % of free float, days to cover = shares short ÷ 20-session average volume) and \`squeezeRisk\` from the weighted score in \`squeeze\`: short % of float 0.4 (0 at 5%, 1 at 30%), days to cover 0.3 (2 → 10), 20-session momentum 0.2 (0% → +25%), borrow utilisation 0.1 (50% → 100%, where reported; otherwise renormalised away); low < 25 ≤ moderate < 50 ≤ elevated < 75 ≤ high. \`snapshot\` is null (and no squeezeRisk) when no report exists, e.g. for funds. ${NOT_AVAILABLE}`,
  },
  shortInterestPage: {
    tags: ['AltData'],
    summary: 'Short-interest history, paginated',
    description: `Every short-interest report with the same derived figures, newest first by default (\`reports\` and \`items\` hold the page); \`snapshot\`, \`squeezeRisk\` and \`squeeze\` as in /api/altdata/short-interest. ${NOT_AVAILABLE}`,
  },
  optionsFlow: {
    tags: ['AltData'],
    summary: 'Unusual options activity and dealer exposure',
    description: `From the current option chain: \`unusual\` contracts (volume ≥ 500 and ≥ 2× open interest), premium (volume × last × 100) by side (last ≥ mid: bought at the ask; below: sold at the bid), call/put ratios by volume, premium and open interest, the largest prints, sweep-like groups (unusual contracts traded at or above the ask, per expiry and type — inferred from aggregates, not trade prints), and net gamma/delta exposure by strike with the gamma flip (dealer convention; Black–Scholes at each contract's IV). \`flow.definition\` states every rule. ${NOT_AVAILABLE}`,
  },
  filings: {
    tags: ['AltData'],
    summary: 'Recent SEC filings',
    description: `Filings of the company (form, filing date, title, link, accession number), newest first by default, optionally only one \`form\` (8-K, 10-Q, 10-K, 4, DEF 14A, …); \`filings\` and \`items\` hold the page. ${NOT_AVAILABLE}`,
  },
  social: {
    tags: ['AltData'],
    summary: 'Social-media mentions',
    description: `Daily mentions with bullish/bearish counts and sentiment over the last \`days\` calendar days (default 30), newest first by default; \`days\` and \`items\` hold the page. \`summary\` covers the whole window: total mentions, mention-weighted sentiment, and \`velocity\` = mentions of the last 3 days ÷ (3 × the daily average of the earlier days) with its trend (surging ≥ 2, rising ≥ 1.25, fading ≤ 0.75, else steady). The synthetic provider simulates mentions; a live social source is an extension point (a provider implementing \`social\`). ${NOT_AVAILABLE}`,
  },
};
