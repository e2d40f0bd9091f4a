/**
 * @module modules/altdata/service
 * Filings, social mentions and options flow (insiders and short interest have
 * their own files).
 *
 * **Social velocity** = mentions of the last 3 days ÷ (3 × the daily average
 * of the days before them in the window): 1 is the usual pace, 2 is twice it.
 * `trend`: `surging` ≥ 2, `rising` ≥ 1.25, `fading` ≤ 0.75, else `steady`.
 */
import { yieldToEventLoop } from '../../db/client';
import { round } from '../../kernels/round';
import { optionsFlow, type FlowContract } from '../../kernels/options/flow';
import type { MarketData } from '../../market-data';
import { paginateList, type PageRequest } from '../../pagination';
import { inFlight } from '../../in-flight';
import type { SocialDay } from '../../providers/types';

const DAY_MS = 86_400_000;
const VELOCITY_RECENT_DAYS = 3;

/** A page of the company's filings (optionally one form), newest first by default; `filings` holds the page as `items` does. */
export async function filingsPage(marketData: MarketData, symbol: string, form: string | undefined, request: PageRequest) {
  await marketData.instrument(symbol);
  const list = await marketData.capability('filings')(symbol, { limit: 1000 });
  const wanted = form?.toUpperCase();
  // Oldest first, so the pagination's default `desc` lists the newest first.
  const ascending = list
    .filter((f) => wanted === undefined || f.form.toUpperCase() === wanted)
    .sort((a, b) => a.filedAt.localeCompare(b.filedAt) || a.accessionNumber.localeCompare(b.accessionNumber))
    .map(({ form, filedAt, title, url, accessionNumber, source }) => ({ form, filedAt, title, url, accessionNumber, source }));
  const page = paginateList(ascending, request);
  return { symbol, source: marketData.sourceOf('filings'), filings: page.items, ...page };
}

/** Totals, mention-weighted sentiment and velocity of a run of days (oldest first). */
export function socialSummary(days: readonly SocialDay[]) {
  const total = days.reduce((a, d) => a + d.mentions, 0);
  const tagged = days.reduce((a, d) => a + d.bullish + d.bearish, 0);
  const sentiment = tagged > 0 ? days.reduce((a, d) => a + d.bullish - d.bearish, 0) / tagged : 0;
  const recent = days.slice(-VELOCITY_RECENT_DAYS);
  const before = days.slice(0, Math.max(0, days.length - VELOCITY_RECENT_DAYS));
  const baseline = before.length > 0 ? before.reduce((a, d) => a + d.mentions, 0) / before.length : null;
  const recentMentions = recent.reduce((a, d) => a + d.mentions, 0);
  const velocity = baseline ? round(recentMentions / (VELOCITY_RECENT_DAYS * baseline), 3) : null;
  const trend = velocity === null ? 'unknown' : velocity >= 2 ? 'surging' : velocity >= 1.25 ? 'rising' : velocity <= 0.75 ? 'fading' : 'steady';
  return {
    totalMentions: total,
    averageDailyMentions: days.length > 0 ? round(total / days.length, 2) : 0,
    sentiment: round(sentiment, 3),
    recentMentions,
    baselineDailyMentions: baseline === null ? null : round(baseline, 2),
    velocity,
    trend,
    definition: `velocity = mentions of the last ${VELOCITY_RECENT_DAYS} days ÷ (${VELOCITY_RECENT_DAYS} × the daily average of the earlier days); surging ≥ 2, rising ≥ 1.25, fading ≤ 0.75`,
  };
}

/** A page of the last `days` days of mentions, newest first by default, with the summary of the whole window. */
export async function socialPage(marketData: MarketData, symbol: string, days: number, request: PageRequest) {
  await marketData.instrument(symbol);
  const list = await marketData.capability('social')(symbol, { days });
  const page = paginateList(
    list.map(({ date, mentions, bullish, bearish, sentiment }) => ({ date, mentions, bullish, bearish, sentiment })),
    request,
  );
  return { symbol, source: marketData.sourceOf('social'), days: page.items, summary: socialSummary(list), ...page };
}

/** The rate the flow's greeks are computed at when the chain carries none. */
export const FLOW_RATE = 0.045;

/** Callers of one symbol's flow at once share one computation: a chain's gamma flip prices every contract at 61 spots (issue 27). */
const sharedFlow = inFlight<MarketData, Awaited<ReturnType<typeof computeOptionsFlow>>>();

export function optionsFlowOf(marketData: MarketData, symbol: string) {
  return sharedFlow(marketData, symbol, () => computeOptionsFlow(marketData, symbol));
}

async function computeOptionsFlow(marketData: MarketData, symbol: string) {
  await yieldToEventLoop(); // callers that came together are all dispatched, and share this, before it starts (a held chain settles in microtasks)
  await marketData.instrument(symbol);
  const chain = await marketData.capability('optionChain')(symbol);
  await yieldToEventLoop(); // the synthetic chain is priced on the main thread: its flow in a turn of its own
  const asOf = Date.parse(chain.asOf);
  const contracts: FlowContract[] = chain.contracts.map((c) => ({
    contractSymbol: c.contractSymbol,
    type: c.type,
    strike: c.strike,
    expiry: c.expiry,
    // Expiry at the 16:00 New York close (21:00 UTC) of its date.
    years: Math.max(1 / 365 / 24, (Date.parse(`${c.expiry}T21:00:00Z`) - asOf) / DAY_MS / 365),
    bid: c.bid,
    ask: c.ask,
    last: c.last,
    volume: c.volume,
    openInterest: c.openInterest,
    iv: c.impliedVolatility,
  }));
  const flow = optionsFlow(contracts, { spot: chain.underlyingPrice, rate: FLOW_RATE });
  const exposure = flow.exposure;
  return {
    symbol,
    flow: {
      asOf: chain.asOf,
      source: marketData.sourceOf('optionChain'),
      underlyingPrice: chain.underlyingPrice,
      expiries: chain.expiries,
      contracts: chain.contracts.length,
      definition: {
        unusual: 'volume ≥ 500 and volume ≥ 2 × open interest (more traded today than was open: likely new positions)',
        premium: 'volume × last (mid without a last) × 100',
        side: 'last ≥ mid: bought at the ask (buyer-initiated); below: sold at the bid (Lee–Ready quote rule on the last trade)',
        sweepLike: 'unusual contracts whose last is at or above the ask, grouped per expiry and type; inferred from daily aggregates, not trade prints',
        exposure: `dealer convention (long calls, short puts): gamma = Σ ±Γ·OI·100·S²·0.01 (calls +, puts −), dollars per 1% move; delta = Σ Δ·OI·100·S; Black–Scholes at each contract's IV, r = ${FLOW_RATE}`,
      },
      totals: { ...flow.totals, callPremium: round(flow.totals.callPremium, 2), putPremium: round(flow.totals.putPremium, 2) },
      premiumBySide: Object.fromEntries(Object.entries(flow.premiumBySide).map(([k, v]) => [k, round(v, 2)])),
      ratios: Object.fromEntries(Object.entries(flow.ratios).map(([k, v]) => [k, v === null ? null : round(v, 4)])),
      unusual: flow.unusual.slice(0, 50),
      unusualCount: flow.unusual.length,
      largestPrints: flow.largestPrints,
      sweepLike: flow.sweepLike,
      exposure: {
        totalGamma: round(exposure.totalGamma, 0),
        totalDelta: round(exposure.totalDelta, 0),
        gammaFlip: exposure.gammaFlip === null ? null : round(exposure.gammaFlip, 2),
        byStrike: exposure.byStrike.map((r) => ({
          strike: r.strike,
          callGamma: round(r.callGamma, 0),
          putGamma: round(r.putGamma, 0),
          netGamma: round(r.netGamma, 0),
          netDelta: round(r.netDelta, 0),
          callOpenInterest: r.callOpenInterest,
          putOpenInterest: r.putOpenInterest,
        })),
      },
    },
  };
}
