/**
 * @module providers/edgar/source
 * SEC EDGAR as a capability source (providers/compose): insider transactions
 * from Form 4 ownership XML, the recent filings list, and shares outstanding
 * from company facts.
 *
 * EDGAR's fair-access policy: a descriptive `User-Agent` naming the
 * organisation and a contact address on every request, and at most 10
 * requests per second (https://www.sec.gov/os/accessing-edgar-data). Without
 * a User-Agent every call is `ProviderError('missing_credential')`; requests
 * go through one `VendorHttp` limited to 10/s.
 *
 * Requests per call: the ticker map once a day; a company's submissions at
 * most every `SUBMISSIONS_TTL_MS`; each Form 4 document once (filings never
 * change; kept by accession number); company facts once a day. An insider
 * query reads at most `MAX_FORM4` documents (the newest), so a first query of
 * a busy issuer costs a few seconds and later ones almost nothing.
 */
import { VendorHttp } from '../http';
import { ProviderError, type CapabilitySource, type Capability, type Filing, type FloatData, type InsiderTransaction } from '../types';
import {
  archiveUrl,
  filingsOf,
  NAME,
  paddedCik,
  parseForm4,
  parseSharesOutstanding,
  parseSubmissions,
  parseTickers,
  rawOwnershipDocument,
  type SubmissionEntry,
  type SubmissionsPayload,
} from './parse';

export interface EdgarOptions {
  /** e.g. `Breakline ops@example.com`: required by the SEC. */
  userAgent: string;
  /** www.sec.gov: company_tickers.json and the Archives. */
  baseUrl?: string;
  /** data.sec.gov: submissions and XBRL company facts. */
  dataUrl?: string;
  /** Default and maximum 10 (the SEC's limit). */
  ratePerSecond?: number;
  timeoutMs?: number;
}

export const EDGAR_MAX_RATE = 10;
const DAY_MS = 86_400_000;
const SUBMISSIONS_TTL_MS = 10 * 60_000;
const MAX_FORM4 = 40;
/** Days after a transaction by which its Form 4 is filed (two business days, plus late filers). */
const FILING_LAG_DAYS = 10;
const FORM4 = new Set(['4', '4/A']);

interface Timed<T> {
  at: number;
  value: Promise<T>;
}

export class EdgarSource implements CapabilitySource {
  readonly name = NAME;
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>(['insider', 'filings', 'float']);
  private readonly http: VendorHttp;
  private readonly baseUrl: string;
  private readonly dataUrl: string;
  private tickers: Timed<Map<string, number>> | null = null;
  private readonly submissions = new Map<number, Timed<SubmissionEntry[]>>();
  private readonly facts = new Map<number, Timed<FloatData>>();
  private readonly form4 = new Map<string, Promise<InsiderTransaction[]>>();
  /** Requests per second actually used (at most `EDGAR_MAX_RATE`). */
  readonly ratePerSecond: number;

  constructor(private readonly options: EdgarOptions, private readonly now: () => number = Date.now) {
    this.baseUrl = options.baseUrl ?? 'https://www.sec.gov';
    this.dataUrl = options.dataUrl ?? 'https://data.sec.gov';
    this.ratePerSecond = Math.min(EDGAR_MAX_RATE, options.ratePerSecond ?? EDGAR_MAX_RATE);
    this.http = new VendorHttp({
      vendor: NAME,
      ratePerSecond: this.ratePerSecond,
      headers: { 'user-agent': options.userAgent.trim() },
      timeoutMs: options.timeoutMs,
    });
  }

  async insiderTransactions(symbol: string, range: { from: string; to: string }): Promise<InsiderTransaction[]> {
    const cik = await this.cikOf(symbol);
    const last = new Date(Date.parse(`${range.to}T00:00:00Z`) + FILING_LAG_DAYS * DAY_MS).toISOString().slice(0, 10);
    const forms = (await this.recent(symbol, cik)).filter((e) => FORM4.has(e.form) && e.filingDate >= range.from && e.filingDate <= last).slice(0, MAX_FORM4);
    const documents = await Promise.all(forms.map((entry) => this.form4Of(symbol, cik, entry)));
    return documents
      .flat()
      .filter((t) => t.transactionDate >= range.from && t.transactionDate <= range.to)
      .sort((a, b) => b.transactionDate.localeCompare(a.transactionDate) || b.filingDate.localeCompare(a.filingDate));
  }

  async filings(symbol: string, options: { limit: number }): Promise<Filing[]> {
    const cik = await this.cikOf(symbol);
    return filingsOf((await this.recent(symbol, cik)).slice(0, options.limit), symbol, cik, this.baseUrl);
  }

  async float(symbol: string): Promise<FloatData> {
    const cik = await this.cikOf(symbol);
    return this.timed(this.facts, cik, DAY_MS, async () =>
      parseSharesOutstanding(await this.http.json(`${this.dataUrl}/api/xbrl/companyfacts/CIK${paddedCik(cik)}.json`, { symbol }), symbol),
    );
  }

  private checkCredential(symbol: string) {
    if (!this.options.userAgent.trim()) {
      throw new ProviderError('missing_credential', NAME, symbol, 'the SEC requires a descriptive User-Agent with a contact address (set EDGAR_USER_AGENT)');
    }
  }

  private async cikOf(symbol: string): Promise<number> {
    this.checkCredential(symbol);
    if (!this.tickers || this.now() - this.tickers.at > DAY_MS) {
      const value = this.http.json(`${this.baseUrl}/files/company_tickers.json`, { symbol }).then(parseTickers);
      this.tickers = { at: this.now(), value };
      value.catch(() => (this.tickers = null));
    }
    const cik = (await this.tickers.value).get(symbol);
    if (cik === undefined) throw new ProviderError('unknown_symbol', NAME, symbol, 'not in the SEC company ticker list');
    return cik;
  }

  private recent(symbol: string, cik: number): Promise<SubmissionEntry[]> {
    return this.timed(this.submissions, cik, SUBMISSIONS_TTL_MS, async () =>
      parseSubmissions(await this.http.json<SubmissionsPayload>(`${this.dataUrl}/submissions/CIK${paddedCik(cik)}.json`, { symbol }), symbol),
    );
  }

  private form4Of(symbol: string, cik: number, entry: SubmissionEntry): Promise<InsiderTransaction[]> {
    let lines = this.form4.get(entry.accessionNumber);
    if (!lines) {
      const url = archiveUrl(this.baseUrl, cik, { ...entry, primaryDocument: rawOwnershipDocument(entry.primaryDocument) });
      lines = this.http.text(url, { symbol }).then((document) => parseForm4(document, { symbol, filingDate: entry.filingDate, filingUrl: archiveUrl(this.baseUrl, cik, entry) }));
      this.form4.set(entry.accessionNumber, lines);
      lines.catch(() => this.form4.delete(entry.accessionNumber));
    }
    return lines;
  }

  private timed<T>(cache: Map<number, Timed<T>>, key: number, ttl: number, load: () => Promise<T>): Promise<T> {
    const hit = cache.get(key);
    if (hit && this.now() - hit.at <= ttl) return hit.value;
    const value = load();
    cache.set(key, { at: this.now(), value });
    value.catch(() => cache.delete(key));
    return value;
  }
}

export function createEdgarSource(options: EdgarOptions, now?: () => number): EdgarSource {
  return new EdgarSource(options, now);
}
