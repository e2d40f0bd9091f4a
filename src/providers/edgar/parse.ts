/**
 * @module providers/edgar/parse
 * SEC EDGAR payloads read into the standard models. Pure; a payload of the
 * wrong shape is `ProviderError('bad_payload')`.
 *
 * - `company_tickers.json`: `{ "0": { cik_str, ticker, title }, … }` → ticker → CIK.
 * - Submissions (`/submissions/CIK##########.json`): `filings.recent` holds
 *   parallel arrays (accessionNumber, filingDate, form, primaryDocument,
 *   primaryDocDescription, …), newest first.
 * - Company facts (`/api/xbrl/companyfacts/CIK##########.json`):
 *   `facts.dei.EntityCommonStockSharesOutstanding.units.shares[]` = { end, val, filed, form }:
 *   the cover-page share count, as of `end`.
 * - Form 4 ownership XML (EDGAR Ownership XML Technical Specification,
 *   schema X0508): `issuer`, one or more `reportingOwner`s with their
 *   relationship, and `nonDerivativeTable.nonDerivativeTransaction[]` with
 *   `transactionDate`, `transactionCoding.transactionCode`,
 *   `transactionAmounts.{transactionShares, transactionPricePerShare,
 *   transactionAcquiredDisposedCode}` and
 *   `postTransactionAmounts.sharesOwnedFollowingTransaction` (each a
 *   `<value>`, or a footnote in its place). Derivative lines (options, RSUs)
 *   are not insider trades in the common stock and are left out.
 */
import { XMLParser } from 'fast-xml-parser';
import { ProviderError, type Filing, type FloatData, type InsiderTransaction } from '../types';

export const NAME = 'edgar';

const bad = (symbol: string | null, detail: string) => new ProviderError('bad_payload', NAME, symbol, detail);

/** `0000320193`: the 10-digit CIK EDGAR's data paths use. */
export const paddedCik = (cik: number) => String(cik).padStart(10, '0');

/** Ticker (our spelling, `BRK.B`) → CIK from company_tickers.json. */
export function parseTickers(payload: unknown): Map<string, number> {
  if (!payload || typeof payload !== 'object') throw bad(null, 'company_tickers.json is not an object');
  const out = new Map<string, number>();
  for (const row of Object.values(payload as Record<string, { cik_str?: unknown; ticker?: unknown }>)) {
    if (typeof row?.ticker !== 'string' || typeof row.cik_str !== 'number') continue;
    const ticker = row.ticker.toUpperCase().replaceAll('-', '.');
    if (!out.has(ticker)) out.set(ticker, row.cik_str);
  }
  if (out.size === 0) throw bad(null, 'company_tickers.json lists no tickers');
  return out;
}

export interface SubmissionEntry {
  accessionNumber: string;
  filingDate: string;
  form: string;
  primaryDocument: string;
  description: string;
}

export interface SubmissionsPayload {
  cik?: string | number;
  name?: string;
  filings?: { recent?: Record<string, unknown[]> };
}

/** The recent filings of a submissions payload, newest first. */
export function parseSubmissions(payload: SubmissionsPayload, symbol: string): SubmissionEntry[] {
  const recent = payload?.filings?.recent;
  if (!recent || !Array.isArray(recent.accessionNumber) || !Array.isArray(recent.form) || !Array.isArray(recent.filingDate)) {
    throw bad(symbol, 'submissions without filings.recent arrays');
  }
  const column = (name: string) => (Array.isArray(recent[name]) ? recent[name]! : []);
  const [accession, date, form, doc, description] = ['accessionNumber', 'filingDate', 'form', 'primaryDocument', 'primaryDocDescription'].map(column);
  return accession!
    .map((a, i) => ({
      accessionNumber: String(a),
      filingDate: String(date![i] ?? ''),
      form: String(form![i] ?? ''),
      primaryDocument: String(doc![i] ?? ''),
      description: String(description![i] ?? ''),
    }))
    .filter((e) => /^\d{4}-\d{2}-\d{2}$/.test(e.filingDate))
    .sort((a, b) => b.filingDate.localeCompare(a.filingDate) || b.accessionNumber.localeCompare(a.accessionNumber));
}

/** Where a filing's primary document lives in the archive. */
export function archiveUrl(base: string, cik: number, entry: Pick<SubmissionEntry, 'accessionNumber' | 'primaryDocument'>): string {
  return `${base}/Archives/edgar/data/${cik}/${entry.accessionNumber.replaceAll('-', '')}/${entry.primaryDocument}`;
}

/** The raw ownership XML of a Form 4 whose primary document is EDGAR's XSL rendering (`xslF345X05/…`). */
export const rawOwnershipDocument = (primaryDocument: string) => primaryDocument.replace(/^xsl[^/]*\//, '');

export function filingsOf(entries: readonly SubmissionEntry[], symbol: string, cik: number, base: string): Filing[] {
  return entries.map((e) => ({
    symbol,
    form: e.form,
    filedAt: e.filingDate,
    title: e.description && e.description !== e.form ? `${e.form}: ${e.description}` : e.form,
    url: archiveUrl(base, cik, e),
    accessionNumber: e.accessionNumber,
    source: NAME,
  }));
}

interface CompanyFacts {
  facts?: { dei?: { EntityCommonStockSharesOutstanding?: { units?: { shares?: { end?: string; val?: number; filed?: string }[] } } } };
}

/** Shares outstanding from the latest cover page (dei:EntityCommonStockSharesOutstanding); EDGAR has no free-float share count. */
export function parseSharesOutstanding(payload: CompanyFacts, symbol: string): FloatData {
  const facts = payload?.facts;
  if (!facts) throw bad(symbol, 'company facts without `facts`');
  const points = (facts.dei?.EntityCommonStockSharesOutstanding?.units?.shares ?? []).filter(
    (p) => typeof p.val === 'number' && p.val > 0 && typeof p.end === 'string',
  );
  const latest = points.sort((a, b) => a.end!.localeCompare(b.end!) || (a.filed ?? '').localeCompare(b.filed ?? '')).at(-1);
  return { symbol, sharesOutstanding: latest?.val ?? null, freeFloat: null, asOf: latest?.end ?? null, source: NAME, estimated: false };
}

const xml = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'reportingOwner' || name === 'nonDerivativeTransaction' || name === 'nonDerivativeHolding',
});

type Node = Record<string, unknown> | string | undefined;
const at = (node: Node, ...path: string[]): Node => path.reduce<Node>((n, key) => (n && typeof n === 'object' ? (n[key] as Node) : undefined), node);
/** The text of `<x><value>…</value></x>` or `<x>…</x>`; '' when absent (e.g. only a footnote). */
const text = (node: Node): string => {
  if (typeof node === 'string') return node.trim();
  const value = at(node, 'value');
  return typeof value === 'string' ? value.trim() : '';
};
const flag = (node: Node) => ['1', 'true'].includes(text(node).toLowerCase());
const number = (node: Node) => {
  const t = text(node).replaceAll(',', '');
  const x = t === '' ? NaN : Number(t);
  return Number.isFinite(x) ? x : null;
};

/** The non-derivative lines of one Form 4 ownership document. */
export function parseForm4(document: string, context: { symbol: string; filingDate: string; filingUrl: string }): InsiderTransaction[] {
  let parsed: Record<string, unknown>;
  try {
    parsed = xml.parse(document) as Record<string, unknown>;
  } catch (error) {
    throw bad(context.symbol, `Form 4 is not XML: ${(error as Error).message}`);
  }
  const doc = parsed.ownershipDocument as Node;
  if (!doc || typeof doc !== 'object') throw bad(context.symbol, 'Form 4 without ownershipDocument');
  const owners = (at(doc, 'reportingOwner') as unknown as Node[] | undefined) ?? [];
  const names = owners.map((o) => text(at(o, 'reportingOwnerId', 'rptOwnerName'))).filter(Boolean);
  const relation = owners.map((o) => at(o, 'reportingOwnerRelationship'));
  const isDirector = relation.some((r) => flag(at(r, 'isDirector')));
  const isOfficer = relation.some((r) => flag(at(r, 'isOfficer')));
  const roles = [
    ...new Set(
      relation.flatMap((r) => [
        ...(flag(at(r, 'isOfficer')) ? [text(at(r, 'officerTitle')) || 'Officer'] : []),
        ...(flag(at(r, 'isDirector')) ? ['Director'] : []),
        ...(flag(at(r, 'isTenPercentOwner')) ? ['10% Owner'] : []),
        ...(flag(at(r, 'isOther')) ? [text(at(r, 'otherText')) || 'Other'] : []),
      ]),
    ),
  ];
  const lines = (at(doc, 'nonDerivativeTable', 'nonDerivativeTransaction') as unknown as Node[] | undefined) ?? [];
  const out: InsiderTransaction[] = [];
  for (const line of lines) {
    const shares = number(at(line, 'transactionAmounts', 'transactionShares'));
    const date = text(at(line, 'transactionDate')).slice(0, 10);
    const ad = text(at(line, 'transactionAmounts', 'transactionAcquiredDisposedCode'));
    if (shares === null || !/^\d{4}-\d{2}-\d{2}$/.test(date) || (ad !== 'A' && ad !== 'D')) continue;
    const price = number(at(line, 'transactionAmounts', 'transactionPricePerShare'));
    out.push({
      symbol: context.symbol,
      insider: names.join('; ') || 'unknown',
      role: roles.join(', '),
      isDirector,
      isOfficer,
      code: text(at(line, 'transactionCoding', 'transactionCode')),
      acquiredDisposed: ad,
      shares,
      price,
      value: price === null ? null : shares * price,
      sharesOwnedAfter: number(at(line, 'postTransactionAmounts', 'sharesOwnedFollowingTransaction')),
      transactionDate: date,
      filingDate: context.filingDate,
      filingUrl: context.filingUrl,
      source: NAME,
    });
  }
  return out;
}
