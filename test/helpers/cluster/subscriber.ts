/**
 * @module test/helpers/cluster/subscriber
 * A stream subscriber that stays subscribed to one instance whatever happens
 * to it: `GET /api/stream` (every channel), and when the stream ends, the
 * connection fails or the instance answers anything but 200 (warming up,
 * draining), it connects again with `Last-Event-ID` — the last id it saw, as
 * a browser's EventSource does (which itself gives up after a non-200
 * answer). Every event is kept with the moment it arrived.
 */
import { frameReader } from '../sse';

export interface StreamEvent {
  event: string;
  id: string;
  data: Record<string, unknown>;
  /** Epoch ms of arrival. */
  at: number;
}

/** Pause before connecting again (the server's `retry:` is 3 s; shorter here so the suite is quick). */
const RECONNECT_MS = 250;

export class Subscriber {
  readonly events: StreamEvent[] = [];
  /** Arrival of the first `hello`: events stored after it must all arrive (or a `reset`). */
  firstHelloAt: number | undefined;
  connects = 0;
  private lastEventId: string | undefined;
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;

  /** `clientAddress` is sent as X-Forwarded-For, so each subscriber is its own client for the per-client stream cap. */
  constructor(
    readonly name: string,
    private readonly baseUrl: string,
    private readonly clientAddress: string,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  of(...names: string[]): StreamEvent[] {
    return this.events.filter((e) => names.includes(e.event));
  }

  private async loop(): Promise<void> {
    const { signal } = this.stopping;
    while (!signal.aborted) {
      try {
        const headers: Record<string, string> = { accept: 'text/event-stream', 'x-forwarded-for': this.clientAddress };
        if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
        const response = await fetch(`${this.baseUrl}/api/stream`, { headers, signal });
        if (response.status === 200 && response.body) {
          this.connects++;
          const reader = frameReader(response.body);
          for (;;) {
            const [frame] = await reader.read(1);
            if (!frame) break;
            const at = Date.now();
            if (frame.event === 'hello') this.firstHelloAt ??= at;
            if (frame.id) this.lastEventId = frame.id;
            this.events.push({ event: frame.event, id: frame.id, data: frame.data as Record<string, unknown>, at });
          }
        } else await response.body?.cancel();
      } catch {
        // refused, reset or aborted: connect again (or stop)
      }
      if (!signal.aborted) await Bun.sleep(RECONNECT_MS);
    }
  }
}
