/**
 * @module providers/finra/source
 * FINRA's bi-monthly equity short-interest files as a capability source
 * (`short_interest`).
 *
 * File: `{base}/equity/otcmarket/biweekly/shrt{YYYYMMDD}.csv`, one per
 * settlement date, pipe-delimited with a header row (exchange-listed and OTC
 * securities since June 2021, despite the path). Columns read:
 *
 * | column | field |
 * |---|---|
 * | symbolCode | symbol (`BRK.B` spelled `BRK.B` or `BRK/B`) |
 * | settlementDate | settlementDate (`YYYY-MM-DD` or `YYYYMMDD`) |
 * | currentShortPositionQuantity | sharesShort |
 * | previousShortPositionQuantity | previousSharesShort |
 * | averageDailyVolumeQuantity | avgDailyVolume |
 * | daysToCoverQuantity | daysToCover |
 *
 * Settlement dates (FINRA Rule 4560 schedule): the 15th and the last day of
 * each month, or the business day before when that is not one; files appear
 * about seven business days later, so a date without a file yet (HTTP 403 or
 * 404) is skipped. A symbol's history is read from the last `FILES` dates;
 * each file is fetched once (they are immutable) and kept parsed. Where the
 * file carries no days to cover, the short-interest endpoint computes it from
 * our bars (modules/altdata/short-interest `daysToCoverFromBars`).
 */
import { isTradingDay, previousTradingDay } from '../calendar';
import { VendorHttp } from '../http';
import { ProviderError, type Capability, type CapabilitySource, type ShortInterestReport } from '../types';

export const NAME = 'finra';
/** Settlement dates read per query (about three months). */
const FILES = 6;

export interface FinraOptions {
  /** Default `https://cdn.finra.org`. */
  baseUrl?: string;
  ratePerSecond?: number;
  timeoutMs?: number;
  /** Today (`YYYY-MM-DD`, New York); injectable for tests. */
  today?: () => string;
}

const num = (text: string | undefined) => {
  const t = (text ?? '').trim().replaceAll(',', '');
  const x = t === '' ? NaN : Number(t);
  return Number.isFinite(x) ? x : null;
};

/** `2026-05-15` or `20260515` → `2026-05-15`; null otherwise. */
function isoDate(text: string | undefined): string | null {
  const t = (text ?? '').trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return t;
  if (/^\d{8}$/.test(t)) return `${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6)}`;
  return null;
}

/** The rows of one short-interest file by symbol. @throws {ProviderError} `bad_payload` without the columns. */
export function parseShortInterestFile(text: string, fileDate: string): Map<string, ShortInterestReport> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = (lines[0] ?? '').split('|').map((h) => h.trim());
  const col = (name: string) => header.indexOf(name);
  const [symbol, settlement, current, previous, adv, dtc] = ['symbolCode', 'settlementDate', 'currentShortPositionQuantity', 'previousShortPositionQuantity', 'averageDailyVolumeQuantity', 'daysToCoverQuantity'].map(col);
  if (symbol! < 0 || current! < 0) throw new ProviderError('bad_payload', NAME, null, `shrt${fileDate.replaceAll('-', '')}: no symbolCode/currentShortPositionQuantity header`);
  const out = new Map<string, ShortInterestReport>();
  for (const line of lines.slice(1)) {
    const cells = line.split('|');
    const code = cells[symbol!]?.trim().toUpperCase().replaceAll('/', '.');
    const sharesShort = num(cells[current!]);
    if (!code || sharesShort === null) continue;
    out.set(code, {
      symbol: code,
      settlementDate: isoDate(cells[settlement!]) ?? fileDate,
      sharesShort,
      previousSharesShort: previous! >= 0 ? num(cells[previous!]) : null,
      avgDailyVolume: adv! >= 0 ? num(cells[adv!]) : null,
      daysToCover: dtc! >= 0 ? num(cells[dtc!]) : null,
      source: NAME,
    });
  }
  return out;
}

const onOrBefore = (date: string) => (isTradingDay(date) ? date : previousTradingDay(date));

/** The last `count` settlement dates on or before `today`, newest first. */
export function settlementDates(today: string, count: number): string[] {
  const out: string[] = [];
  let y = Number(today.slice(0, 4));
  let m = Number(today.slice(5, 7));
  while (out.length < count) {
    const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const mid = `${y}-${String(m).padStart(2, '0')}-15`;
    for (const nominal of [last, mid]) {
      const date = onOrBefore(nominal);
      if (date <= today && out.length < count) out.push(date);
    }
    m -= 1;
    if (m === 0) (m = 12), (y -= 1);
  }
  return out;
}

export class FinraSource implements CapabilitySource {
  readonly name = NAME;
  readonly capabilities: ReadonlySet<Capability> = new Set<Capability>(['short_interest']);
  private readonly http: VendorHttp;
  private readonly files = new Map<string, Promise<Map<string, ShortInterestReport> | null>>();

  constructor(private readonly options: FinraOptions = {}) {
    this.http = new VendorHttp({ vendor: NAME, ratePerSecond: options.ratePerSecond ?? 5, timeoutMs: options.timeoutMs ?? 30_000 });
  }

  /** The symbol's reports in the last `FILES` published files, oldest first; `unknown_symbol` when it is in none. */
  async shortInterest(symbol: string): Promise<ShortInterestReport[]> {
    const today = this.options.today?.() ?? new Date().toISOString().slice(0, 10);
    const files = await Promise.all(settlementDates(today, FILES).map((date) => this.file(date)));
    const reports = files.flatMap((f) => (f?.get(symbol) ? [f.get(symbol)!] : [])).sort((a, b) => a.settlementDate.localeCompare(b.settlementDate));
    if (reports.length === 0) {
      if (files.every((f) => f === null)) throw new ProviderError('unavailable', NAME, symbol, `no short-interest file published for the last ${FILES} settlement dates`);
      throw new ProviderError('unknown_symbol', NAME, symbol, 'not in the recent short-interest files');
    }
    return reports;
  }

  /** One settlement date's file, or null when it is not published (yet). */
  private file(date: string): Promise<Map<string, ShortInterestReport> | null> {
    let file = this.files.get(date);
    if (!file) {
      const url = `${this.options.baseUrl ?? 'https://cdn.finra.org'}/equity/otcmarket/biweekly/shrt${date.replaceAll('-', '')}.csv`;
      file = this.http.text(url, { notFound: [403, 404] }).then(
        (text) => parseShortInterestFile(text, date),
        (error) => {
          if (error instanceof ProviderError && error.code === 'unknown_symbol') return null;
          throw error;
        },
      );
      this.files.set(date, file);
      // Failures and missing files are asked again next time (a file appears once published).
      file.then((f) => f === null && this.files.delete(date), () => this.files.delete(date));
    }
    return file;
  }
}

export function createFinraSource(options?: FinraOptions): FinraSource {
  return new FinraSource(options);
}
