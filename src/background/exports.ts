/**
 * @module background/exports
 * Makes export files in the background: a queued job is claimed by one
 * instance, its rows are read page by page (a ledger slice through
 * ledger/serialize, exactly as /api/transparency/ledger and its CSV show it;
 * or the user's journal through ledger/journal) and written as chunks of
 * about 1 MB to the database, so any instance can stream the file. A done
 * export records its row count and size in bytes and expires after
 * `ttlMs` (its content is then deleted). A job left running by an instance
 * that stopped is queued again after `staleMs`; one cut short by the database
 * going away is queued again as soon as it is back (never marked failed for
 * it), and a pass that failed is tried again with backoff.
 *
 * CSV: RFC 4180 with a header line. JSON: one document,
 * `{ dataset, format, filters, generatedAt, records: [...] }`, each record as
 * the ledger endpoint shows it (or a journal entry with its figures).
 */
import { PolledWorker } from '../poller';
import { databaseUnreachable } from '../db/client';
import type { JournalRepository } from '../db/repositories/journal';
import type { ExportsRepository, StoredExport } from '../db/repositories/exports';
import type { LedgerRepository } from '../db/repositories/ledger';
import type { ScansRepository } from '../db/repositories/scans';
import { ledgerFilter } from '../ledger/filter';
import { journalCsvRows, journalFigures, JOURNAL_CSV_COLUMNS, type JournalTrade } from '../ledger/journal';
import { csvHeader, csvRows, ledgerEntries } from '../ledger/serialize';
import type { Logger } from '../log';

export interface ExportJobsOptions {
  exports: ExportsRepository;
  ledger: LedgerRepository;
  journal: JournalRepository;
  scans: ScansRepository;
  log: Logger;
  ttlMs: number;
  /** How long a job may run before another instance takes it as abandoned. */
  staleMs?: number;
  pollMs?: number;
  now?: () => number;
}

const CHUNK_CHARS = 1 << 20;
const PAGE = 2000;

/** Collects text into chunks of about `CHUNK_CHARS`, counting bytes. */
class ChunkWriter {
  private buffer = '';
  private seq = 0;
  bytes = 0;

  constructor(private readonly write: (seq: number, content: string) => Promise<void>) {}

  async add(text: string): Promise<void> {
    this.buffer += text;
    this.bytes += Buffer.byteLength(text);
    if (this.buffer.length >= CHUNK_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer === '') return;
    await this.write(this.seq++, this.buffer);
    this.buffer = '';
  }
}

/** Expires what is due, then makes every queued export, each pass (`kick` when one is queued; every `pollMs` besides). */
export class ExportJobs extends PolledWorker {
  /** Jobs this instance was making when the database went away: queued again first thing once it is back. */
  private readonly interrupted = new Set<string>();

  constructor(private readonly options: ExportJobsOptions) {
    super({ what: 'export pass', log: options.log, everyMs: options.pollMs ?? 30_000 });
  }

  private now(): Date {
    return new Date((this.options.now ?? Date.now)());
  }

  protected async pass(): Promise<void> {
    const { exports, log } = this.options;
    const now = this.now();
    if (this.interrupted.size > 0) {
      await exports.requeue([...this.interrupted]);
      this.interrupted.clear();
    }
    await exports.expire(now);
    await exports.requeueStale(new Date(now.getTime() - (this.options.staleMs ?? 30 * 60_000)));
    for (let job = await exports.claimQueued(this.now()); job; job = await exports.claimQueued(this.now())) {
      try {
        const { rowCount, sizeBytes } = await this.produce(job);
        const finishedAt = this.now();
        await exports.finish(job.id, { status: 'done', rowCount, sizeBytes, finishedAt, expiresAt: new Date(finishedAt.getTime() + this.options.ttlMs) });
        log.info('export done', { export: job.id, dataset: job.dataset, format: job.format, rowCount, sizeBytes });
      } catch (error) {
        if (databaseUnreachable(error)) {
          this.interrupted.add(job.id);
          throw error;
        }
        log.error('export failed', { export: job.id, error: String(error) });
        await exports.finish(job.id, { status: 'failed', error: String((error as Error)?.message ?? error).slice(0, 500), finishedAt: this.now() });
      }
    }
  }

  private async produce(job: StoredExport): Promise<{ rowCount: number; sizeBytes: number }> {
    const out = new ChunkWriter((seq, content) => this.options.exports.appendChunk(job.id, seq, content));
    const json = job.format === 'json';
    let rowCount = 0;
    /** Rows as CSV text, or as JSON array elements. */
    const emit = async (csv: () => string, records: readonly unknown[]) => {
      if (!json) await out.add(csv());
      else for (let i = 0; i < records.length; i++) await out.add(`${rowCount + i > 0 ? ',' : ''}\n${JSON.stringify(records[i])}`);
      rowCount += records.length;
    };
    if (json) await out.add(`{"dataset":${JSON.stringify(job.dataset)},"format":"json","filters":${JSON.stringify(job.filters)},"generatedAt":${JSON.stringify(this.now().toISOString())},"records":[`);
    if (job.dataset === 'ledger') {
      if (!json) await out.add(csvHeader());
      const filter = ledgerFilter(job.filters);
      for (let offset = 0; ; offset += PAGE) {
        const { rows } = await this.options.ledger.signalRecords(filter, PAGE, offset);
        if (rows.length === 0) break;
        const entries = ledgerEntries(rows, await this.options.ledger.followUps(rows.map((r) => r.signalId)));
        await emit(() => csvRows(entries), entries);
        if (rows.length < PAGE) break;
      }
    } else {
      if (!json) await out.add(csvHeader(JOURNAL_CSV_COLUMNS));
      const entries = await this.options.journal.all(job.userId, { symbol: job.filters.symbol, tag: job.filters.tag });
      const stops = await this.options.scans.stopsOf([...new Set(entries.flatMap((e) => (e.signalId ? [e.signalId] : [])))]);
      const trades: JournalTrade[] = entries.map((e) => ({ ...e, ...journalFigures(e, e.signalId ? (stops.get(e.signalId) ?? null) : null) }));
      await emit(() => journalCsvRows(trades), trades);
    }
    if (json) await out.add(`${rowCount > 0 ? '\n' : ''}]}\n`);
    await out.flush();
    return { rowCount, sizeBytes: out.bytes };
  }
}
