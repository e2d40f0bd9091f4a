/**
 * @module cli/capacity/stream-fleet
 * The parent side of the SSE client processes (cli/capacity/stream-clients):
 * starts them with a share of the connections each, waits until every
 * connection is greeted or refused, collects their counts, and ends them.
 * More connections are added as more processes (a ramp grows its clients step
 * by step without reconnecting the ones it holds). `breakline capacity` and
 * the benches (bench/sse, bench/live, bench/sse-loops) hold their clients
 * through it.
 *
 * @example
 * const fleet = new StreamFleet([process.execPath, 'bench/sse-clients.ts']);
 * await fleet.add({ host: '127.0.0.1', port, paths: ['/api/stream?channels=breakouts.new'], count: 1000, events: { 'breakouts.new': null } }, 4);
 * const { received } = await fleet.report();
 * await fleet.close();
 */
import type { ClientReport, StreamClientsConfig } from './stream-clients';

export interface ClientProcess {
  proc: Bun.Subprocess<'pipe', 'pipe', 'inherit'>;
  lines: AsyncIterator<string>;
  count: number;
}

/** The JSON lines of a stream, one at a time (blank lines skipped). */
export async function* linesOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of stream) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop()!;
    yield* lines.filter((l) => l.trim() !== '');
  }
}

/** The client process's next JSON line; fails after `timeoutMs` (its timer cleared once answered: a caller outlives it). */
export async function nextJson<T>(client: Pick<ClientProcess, 'lines'>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('a client process did not answer')), timeoutMs)));
  try {
    const { value, done } = await Promise.race([client.lines.next(), timeout]);
    if (done) throw new Error('a client process ended early');
    return JSON.parse(value) as T;
  } finally {
    clearTimeout(timer);
  }
}

/** What all the processes counted since the last report. */
export interface FleetReport {
  received: number;
  /** Receipt delays of the timed events, µs, unsorted. */
  latencies: number[];
  closed: number;
  refused: Record<string, number>;
  /** CPU time of the client processes since the last report, µs, each and summed. */
  cpuUs: number[];
}

export class StreamFleet {
  readonly processes: ClientProcess[] = [];

  /** `command` starts one client process when the JSON config is appended to it. */
  constructor(private readonly command: readonly string[]) {}

  /** Connections held (greeted or refused). */
  get count(): number {
    return this.processes.reduce((n, p) => n + p.count, 0);
  }

  /**
   * Opens `config.count` more connections over `processes` new processes and
   * resolves once each is greeted or refused (within `timeoutMs`); the
   * refusals of the new connections by status.
   */
  async add(config: StreamClientsConfig, processes: number, timeoutMs = 120_000): Promise<Record<string, number>> {
    const share = Math.ceil(config.count / Math.max(1, processes));
    const started: ClientProcess[] = [];
    for (let left = config.count, offset = 0; left > 0; left -= share) {
      const count = Math.min(share, left);
      // Each process starts its round robin of paths where the one before stopped.
      const paths = Array.from({ length: Math.min(count, config.paths.length) }, (_, i) => config.paths[(offset + i) % config.paths.length]!);
      offset += count;
      const proc = Bun.spawn([...this.command, JSON.stringify({ ...config, paths, count })], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' });
      const client = { proc, lines: linesOf(proc.stdout)[Symbol.asyncIterator](), count };
      started.push(client);
      this.processes.push(client);
    }
    const refused: Record<string, number> = {};
    for (const client of started) {
      const ready = await nextJson<{ ready: number; refused: Record<string, number> }>(client, timeoutMs);
      for (const [status, n] of Object.entries(ready.refused)) refused[status] = (refused[status] ?? 0) + n;
    }
    return refused;
  }

  /** Every process's counts since the last report, summed. */
  async report(timeoutMs = 30_000): Promise<FleetReport> {
    const out: FleetReport = { received: 0, latencies: [], closed: 0, refused: {}, cpuUs: [] };
    for (const client of this.processes) {
      client.proc.stdin.write('report\n');
      client.proc.stdin.flush();
    }
    for (const client of this.processes) {
      const got = await nextJson<ClientReport>(client, timeoutMs);
      out.received += got.received;
      for (const l of got.latencies) out.latencies.push(l);
      out.closed += got.closed;
      for (const [status, n] of Object.entries(got.refused)) out.refused[status] = (out.refused[status] ?? 0) + n;
      out.cpuUs.push(got.cpuUs);
    }
    return out;
  }

  /** Ends every process (their connections close with them). */
  async close(): Promise<void> {
    for (const client of this.processes) {
      try {
        client.proc.stdin.write('exit\n');
        client.proc.stdin.flush();
      } catch {
        // already gone
      }
    }
    await Promise.all(
      this.processes.map(async (client) => {
        const exited = await Promise.race([client.proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
        if (!exited) client.proc.kill('SIGKILL');
      }),
    );
    this.processes.length = 0;
  }
}
