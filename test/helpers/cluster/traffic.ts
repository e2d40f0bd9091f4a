/**
 * @module test/helpers/cluster/traffic
 * Client traffic through the balancer while a scenario runs: readers (the
 * breakout list, bars, the user's journal and watchlists, with an API key),
 * writers (journal entries and watchlists, with a session), and a steady
 * stream of alert rules that watch every symbol — each fires for every
 * signal of its timeframe at that timeframe's next scheduled scan, so events
 * keep flowing while the market data stands still. Every write carries an
 * `Idempotency-Key` and a unique marker (its notes or name), so what was
 * acknowledged can be found in the database afterwards exactly once.
 */
import { BREAKOUT_STATES, TIMEFRAMES } from '../../../src/domain/signal';
import { CLUSTER_SYMBOLS } from './market';

export interface RequestRecord {
  method: string;
  path: string;
  /** HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  at: number;
  /** Who answered a 5xx: HAProxy's own page (no server up, or one failed mid-answer) or the service (its Error shape). */
  by?: 'balancer' | 'service';
}

export type WriteKind = 'journal' | 'watchlist' | 'rule';

export interface AckedWrite {
  kind: WriteKind;
  id: string;
  marker: string;
}

export interface Credentials {
  /** `__session=…` of an enterprise-tier user. */
  cookie: string;
  /** `bk_…` of the same user; when absent, the traffic makes one (POST /api/keys) and reads with the session meanwhile. */
  apiKey?: string;
}

export interface TrafficOptions {
  /** Reader/writer loops running at once. */
  workers: number;
  /** Pause of each loop between its requests. */
  pauseMs: number;
  /** One alert rule per this many ms. */
  ruleEveryMs: number;
}

/** Gives up on a request after this long (counted as failed, status 0). */
const REQUEST_TIMEOUT_MS = 15_000;

export class Traffic {
  readonly requests: RequestRecord[] = [];
  readonly acked: AckedWrite[] = [];
  private stopped = false;
  private loops: Promise<void>[] = [];
  private count = 0;

  constructor(
    private readonly baseUrl: string,
    readonly credentials: Credentials,
    private readonly options: TrafficOptions,
    private readonly label: string,
  ) {}

  start(): void {
    this.stopped = false;
    this.loops = [...Array.from({ length: this.options.workers }, (_, i) => this.worker(i)), this.rules(), this.apiKey()];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private async worker(index: number): Promise<void> {
    const reads = ['/api/breakouts?limit=20', `/api/bars?symbol=${CLUSTER_SYMBOLS[index % CLUSTER_SYMBOLS.length]}&range=1mo`, '/api/journal/entries?limit=5', '/api/watchlists?limit=5'];
    for (let n = 0; !this.stopped; n++) {
      if (n % 4 === 3) await this.writeJournal();
      else if (n % 40 === 21) await this.writeWatchlist();
      else await this.send('GET', reads[n % reads.length]!, this.credentials.apiKey ? { authorization: `Bearer ${this.credentials.apiKey}` } : { cookie: this.credentials.cookie });
      await Bun.sleep(this.options.pauseMs);
    }
  }

  /** Makes the reader's API key when there is none yet (on a fresh cluster: once an instance serves). */
  private async apiKey(): Promise<void> {
    while (!this.stopped && !this.credentials.apiKey) {
      const answer = await this.send('POST', '/api/keys', { cookie: this.credentials.cookie, 'content-type': 'application/json' }, JSON.stringify({ name: 'cluster traffic' }));
      if (answer.status === 201) this.credentials.apiKey = (JSON.parse(answer.text) as { key: string }).key;
      else await Bun.sleep(500);
    }
  }

  private async rules(): Promise<void> {
    for (let n = 0; !this.stopped; n++) {
      const marker = this.marker('rule');
      const body = { name: marker, symbols: [...CLUSTER_SYMBOLS], timeframe: TIMEFRAMES[n % TIMEFRAMES.length], states: [...BREAKOUT_STATES], cooldownMinutes: 0, channels: { inApp: true } };
      await this.write('rule', '/api/alerts/v2', body, marker);
      await Bun.sleep(this.options.ruleEveryMs);
    }
  }

  private writeJournal(): Promise<void> {
    const marker = this.marker('journal');
    const body = { symbol: 'AAPL', side: 'long', entryPrice: 100 + (this.count % 50), entryAt: new Date().toISOString(), size: 10, notes: marker };
    return this.write('journal', '/api/journal/entries', body, marker);
  }

  private writeWatchlist(): Promise<void> {
    const marker = this.marker('watchlist');
    return this.write('watchlist', '/api/watchlists', { name: marker, symbols: ['AAPL', 'MSFT'] }, marker);
  }

  private marker(kind: WriteKind): string {
    return `${this.label}-${kind}-${++this.count}-${crypto.randomUUID().slice(0, 8)}`;
  }

  private async write(kind: WriteKind, path: string, body: unknown, marker: string): Promise<void> {
    const headers = { cookie: this.credentials.cookie, 'content-type': 'application/json', 'idempotency-key': marker };
    const answer = await this.send('POST', path, headers, JSON.stringify(body));
    // Acknowledged: 201 with the stored object (a replayed idempotent answer is the same 201).
    if (answer.status === 201) this.acked.push({ kind, id: (JSON.parse(answer.text) as { id: string }).id, marker });
  }

  /** One request, its whole answer read (a connection cut mid-body is a failure too). */
  private async send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; text: string }> {
    const at = Date.now();
    let answer = { status: 0, text: '' };
    try {
      const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      answer = { status: response.status, text: await response.text() };
    } catch {
      // no answer: status 0
    }
    const by = answer.status >= 500 ? (answer.text.startsWith('{') ? 'service' : 'balancer') : undefined;
    this.requests.push({ method, path, status: answer.status, at, ...(by ? { by } : {}) });
    return answer;
  }
}
