/** @module modules/altdata/model — schemas of the AltData tag: insiders, short interest, options flow, filings, social. */
import { t } from 'elysia';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { intParam, SymbolParam } from '../params';

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

export const InsiderQuery = t.Object({ symbol: SymbolParam, windowDays: intParam('windowDays', 1, 730, 30, 'Calendar days back from today') });
export const InsiderPageQuery = t.Object({ symbol: SymbolParam, windowDays: intParam('windowDays', 1, 730, 90, 'Calendar days back from today'), ...PageQuery });

const insiderFields = {
  symbol: t.String(),
  windowDays: t.Integer(),
  from: t.String({ format: 'date' }),
  to: t.String({ format: 'date' }),
  source: t.String(),
  transactions: t.Array(InsiderTransaction),
  summary: Open,
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
const shortFields = {
  symbol: t.String(),
  source: t.String(),
  snapshot: t.Union([ShortInterestReport, t.Null()]),
  squeezeRisk: t.Optional(SqueezeRisk),
  squeeze: t.Union([Open, t.Null()]),
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
