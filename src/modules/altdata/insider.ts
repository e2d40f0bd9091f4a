/**
 * @module modules/altdata/insider
 * Form 4 transactions over a window and what they add up to. Only open-market
 * purchases (P) and sales (S) count in the net figures: awards (A), tax
 * withholding (F), option exercises (M) and gifts (G) are not trading
 * decisions (Cohen, Malloy & Pomorski, "Decoding Inside Information", JF 67(3),
 * 2012, separate routine from opportunistic trades for the same reason); they
 * are counted by code beside. Cluster buying: at least `CLUSTER_BUYERS` (3)
 * different insiders buying in the window.
 */
import { paginateList, type PageRequest } from '../../pagination';
import type { MarketData } from '../../market-data';
import type { InsiderTransaction } from '../../providers/types';

export const CLUSTER_BUYERS = 3;
const DAY_MS = 86_400_000;

/** SEC Form 4 transaction codes (General Instructions, item 8). */
export const FORM4_CODES: Record<string, string> = {
  P: 'Open-market or private purchase',
  S: 'Open-market or private sale',
  A: 'Grant or award',
  D: 'Disposition to the issuer',
  F: 'Tax withholding: payment of exercise price or tax by delivering securities',
  I: 'Discretionary transaction',
  M: 'Exercise or conversion of a derivative security',
  C: 'Conversion of a derivative security',
  E: 'Expiration of a short derivative position',
  H: 'Expiration or cancellation of a long derivative position',
  O: 'Exercise of an out-of-the-money derivative security',
  X: 'Exercise of an in-the-money or at-the-money derivative security',
  G: 'Bona fide gift',
  L: 'Small acquisition',
  W: 'Acquisition or disposition by will or the laws of descent',
  Z: 'Deposit into or withdrawal from a voting trust',
  J: 'Other acquisition or disposition',
  K: 'Equity swap or similar instrument',
  U: 'Disposition due to a tender of shares in a change of control',
};

const round2 = (x: number) => Math.round(x * 100) / 100;

function row(t: InsiderTransaction) {
  return {
    insider: t.insider,
    role: t.role,
    code: t.code,
    codeDescription: FORM4_CODES[t.code] ?? 'Other',
    acquiredDisposed: t.acquiredDisposed,
    shares: t.shares,
    price: t.price,
    value: t.value,
    date: t.transactionDate,
    filingDate: t.filingDate,
    filingUrl: t.filingUrl,
  };
}
export type InsiderRow = ReturnType<typeof row>;

/** Net open-market flow, counts, distinct traders, the cluster flag and the largest trade. */
export function insiderSummary(transactions: readonly InsiderTransaction[]) {
  const buys = transactions.filter((t) => t.code === 'P');
  const sells = transactions.filter((t) => t.code === 'S');
  const sum = (list: InsiderTransaction[], f: (t: InsiderTransaction) => number) => list.reduce((a, t) => a + f(t), 0);
  const buyers = [...new Set(buys.map((t) => t.insider))].sort();
  const sellers = [...new Set(sells.map((t) => t.insider))].sort();
  const otherByCode: Record<string, { count: number; shares: number }> = {};
  for (const t of transactions) {
    if (t.code === 'P' || t.code === 'S') continue;
    const entry = (otherByCode[t.code] ??= { count: 0, shares: 0 });
    entry.count++;
    entry.shares += t.acquiredDisposed === 'A' ? t.shares : -t.shares;
  }
  const largest = [...buys, ...sells].reduce<InsiderTransaction | null>((a, t) => (a === null || (t.value ?? 0) > (a.value ?? 0) ? t : a), null);
  return {
    buyCount: buys.length,
    sellCount: sells.length,
    sharesBought: sum(buys, (t) => t.shares),
    sharesSold: sum(sells, (t) => t.shares),
    netShares: sum(buys, (t) => t.shares) - sum(sells, (t) => t.shares),
    valueBought: round2(sum(buys, (t) => t.value ?? 0)),
    valueSold: round2(sum(sells, (t) => t.value ?? 0)),
    netValue: round2(sum(buys, (t) => t.value ?? 0) - sum(sells, (t) => t.value ?? 0)),
    distinctBuyers: buyers.length,
    distinctSellers: sellers.length,
    clusterBuying: buyers.length >= CLUSTER_BUYERS,
    clusterBuyers: buyers.length >= CLUSTER_BUYERS ? buyers : [],
    clusterThreshold: CLUSTER_BUYERS,
    largestTransaction: largest ? row(largest) : null,
    otherByCode,
    counts: 'Net figures count open-market purchases (P) and sales (S) only; awards, withholding, exercises and gifts are in otherByCode.',
  };
}

/** The window's transactions, newest first, with their summary. */
export async function insiderActivity(marketData: MarketData, symbol: string, windowDays: number) {
  await marketData.instrument(symbol);
  const fetch = marketData.capability('insiderTransactions');
  const { today } = await marketData.completeDaily(symbol);
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - (windowDays - 1) * DAY_MS).toISOString().slice(0, 10);
  const transactions = (await fetch(symbol, { from, to: today })).sort(
    (a, b) => b.transactionDate.localeCompare(a.transactionDate) || b.filingDate.localeCompare(a.filingDate) || a.insider.localeCompare(b.insider),
  );
  return {
    symbol,
    windowDays,
    from,
    to: today,
    source: marketData.sourceOf('insiderTransactions'),
    transactions: transactions.map(row),
    summary: insiderSummary(transactions),
  };
}

/** The window's transactions as a page (newest first by default); `summary` covers the whole window. */
export async function insiderPage(marketData: MarketData, symbol: string, windowDays: number, request: PageRequest) {
  const activity = await insiderActivity(marketData, symbol, windowDays);
  const page = paginateList([...activity.transactions].reverse(), request);
  return { ...activity, transactions: page.items, ...page };
}
