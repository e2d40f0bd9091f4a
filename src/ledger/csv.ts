/**
 * @module ledger/csv
 * The whole ledger as CSV (ledger/serialize's columns), for one head at a
 * time. The file of a head never changes, so it is rendered once per head and
 * kept (up to `maxCachedBytes`), and however many clients ask at once, one
 * rendering runs: a burst of downloads costs one read of the ledger. Rendering
 * reads the facts kept beside the chain up to the head (db/repositories/
 * ledger-facts: each signal's, state change's and outcome's, a few hundred
 * bytes), not the records' bodies, a page per query with the event loop free
 * between pages, and writes the rows `chunkSignals` at a time. A ledger too
 * large to keep is streamed to each client chunk by chunk instead. The ETag
 * is the head hash: a client that has the head already gets nothing to read.
 *
 * @example
 * const csv = await ledgerCsv.open(request.headers.get('if-none-match'));
 * new Response(csv.stream, { status: csv.stream ? 200 : 304, headers: { etag: csv.etag } });
 */
import { yieldToEventLoop } from '../db/client';
import type { LedgerRepository } from '../db/repositories/ledger';
import type { LedgerFactRow } from '../db/schema';
import { csvHeader, csvRows, type CsvEntry } from './serialize';

export interface LedgerCsvOptions {
  /** Signal records per query (small on PGlite, which runs in the server's thread). */
  chunkSignals: number;
  /** The largest rendering kept per head; a larger ledger is streamed per request. */
  maxCachedBytes: number;
}

type Head = { seq: number; hash: string };

export class LedgerCsv {
  private current: { hash: string; chunks: Promise<Uint8Array[] | null> } | undefined;

  constructor(
    private readonly ledger: LedgerRepository,
    private readonly options: LedgerCsvOptions = { chunkSignals: 500, maxCachedBytes: 64 * 2 ** 20 },
  ) {}

  /** The CSV of the current head: its ETag, and its bytes unless `ifNoneMatch` names that ETag (then null: 304). */
  async open(ifNoneMatch: string | null): Promise<{ etag: string; stream: ReadableStream<Uint8Array> | null }> {
    const head = await this.ledger.head();
    const etag = `"${head.hash}"`;
    if (ifNoneMatch !== null && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) return { etag, stream: null };
    if (this.current?.hash !== head.hash) {
      const rendering = this.render(head);
      // A failed rendering is forgotten, so the next request tries again.
      rendering.catch(() => this.current?.chunks === rendering && (this.current = undefined));
      this.current = { hash: head.hash, chunks: rendering };
    }
    const chunks = await this.current.chunks;
    return { etag, stream: chunks ? replay(chunks) : this.live(head) };
  }

  /** Every chunk of `head`'s file, or null once it outgrows `maxCachedBytes`. */
  private async render(head: Head): Promise<Uint8Array[] | null> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of this.chunks(head)) {
      size += chunk.byteLength;
      if (size > this.options.maxCachedBytes) return null;
      chunks.push(chunk);
    }
    return chunks;
  }

  /** `head`'s file read and sent chunk by chunk, for a ledger too large to keep. */
  private live(head: Head): ReadableStream<Uint8Array> {
    const source = this.chunks(head);
    return new ReadableStream({
      async pull(controller) {
        const next = await source.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await source.return(undefined);
      },
    });
  }

  private async *chunks(head: Head): AsyncGenerator<Uint8Array> {
    const encoder = new TextEncoder();
    yield encoder.encode(csvHeader());
    // Each signal's row as of the head: its facts, its last state, its outcome (the facts up to the head, in order).
    const entries = new Map<string, CsvEntry>();
    const { facts, replayId } = this.ledger;
    const page = this.options.chunkSignals * 4;
    for (let after = 0; after < head.seq; ) {
      const { rows, through } = await facts.page(replayId, after, head.seq, page);
      // A turn of the loop between the page's read (PGlite decodes its rows in this thread) and its parsing,
      // and between slices of the parsing: each is a stretch of its own (issue 27: 104–157 ms on the main thread).
      for (let i = 0; i < rows.length; i += this.options.chunkSignals) {
        await yieldToEventLoop();
        for (const row of rows.slice(i, i + this.options.chunkSignals)) apply(entries, row);
      }
      after = through;
      await yieldToEventLoop();
    }
    const all = [...entries.values()];
    for (let i = 0; i < all.length; i += this.options.chunkSignals) {
      yield encoder.encode(csvRows(all.slice(i, i + this.options.chunkSignals)));
      await yieldToEventLoop();
    }
  }
}

const OPEN = { outcome: 'open' };

/** One fact into the rows: a signal's row, or its later state or outcome (the facts come in chain order). */
function apply(entries: Map<string, CsvEntry>, row: LedgerFactRow): void {
  const data = JSON.parse(row.facts) as Record<string, unknown>;
  if (row.kind === 'signal') {
    entries.set(row.signalId, { seq: row.seq, signal: data, state: String(data.state ?? 'forming'), outcome: OPEN, recordedAt: row.recordedAt.toISOString(), hash: row.hash });
    return;
  }
  const entry = entries.get(row.signalId);
  if (!entry) return;
  if (row.kind === 'state') entry.state = String(data.state);
  else if (row.kind === 'outcome') entry.outcome = data as CsvEntry['outcome'];
}

/** A stream over chunks already held. */
function replay(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}
