/**
 * @module test/helpers/cluster/instance
 * One `breakline serve` of the cluster on a fixed port (the balancer's
 * config names it), across its restarts: every incarnation's logs, every
 * exit and whether the suite caused it (a signal it sent: SIGKILL, or
 * SIGTERM answered by exit code 0). Anything else — a crash, a non-zero exit
 * after SIGTERM — is an unexpected exit.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnServer, type SpawnedServer } from '../server-process';
import { holdPort, releasePort } from './ports';

/** A directory to keep every instance's log lines in (`<name>.log`, JSON lines) for a look after the run; unset → kept in memory only. */
const LOG_DIR = process.env.CLUSTER_LOGS;
/** The compiled executable to run instead of the source (`npm run build`; what deploy/compose.yaml's image runs). */
const BINARY = process.env.CLUSTER_BINARY;

export interface InstanceExit {
  instance: string;
  at: number;
  code: number;
  signal: string | null;
  expected: boolean;
  /** The last error/warn/non-JSON log lines before it, for the report. */
  lastErrors: string[];
}

export class Instance {
  /** Every incarnation's log lines, oldest first. */
  readonly logs: Record<string, unknown>[] = [];
  readonly exits: InstanceExit[] = [];
  startedAt = 0;
  private server: SpawnedServer | undefined;
  private sent: NodeJS.Signals | undefined;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.running ? this.server!.proc.pid : undefined;
  }

  get running(): boolean {
    return this.server !== undefined && this.server.proc.exitCode === null && this.server.proc.signalCode === null;
  }

  /** Spawns a new incarnation (the previous one must have exited), its port let go by the placeholder that held it. */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    await releasePort(this.port);
    this.sent = undefined;
    this.startedAt = Date.now();
    const server = spawnServer({ ...this.env, PORT: String(this.port) }, BINARY);
    this.server = server;
    const from = this.logs.length;
    this.keep([{ level: 'suite', msg: 'cluster suite: started', time: new Date().toISOString(), port: this.port }]);
    // Logs are copied as they come so a kill -9 loses nothing the process wrote.
    const copy = setInterval(() => this.keep(server.logs.splice(0)), 200);
    void server.exited.then((code) => {
      clearInterval(copy);
      this.keep(server.logs.splice(0));
      const signal = server.proc.signalCode === null ? null : String(server.proc.signalCode);
      const expected = this.sent === 'SIGKILL' || (this.sent === 'SIGTERM' && code === 0);
      // What it said last: an uncaught error's message (Bun prints it amid source lines), else its last warnings and errors.
      const said = this.logs.slice(from);
      const thrown = said.filter((l) => l.level === undefined && /^\s*(\w*Error|error):/.test(String(l.msg)));
      const lastErrors = (thrown.length ? thrown : said.filter((l) => l.level === 'error' || l.level === 'warn'))
        .slice(-3)
        .map((l) => (l.level === undefined ? String(l.msg).trim() : JSON.stringify(l)).slice(0, 300));
      this.exits.push({ instance: this.name, at: Date.now(), code, signal, expected, lastErrors });
      void holdPort(this.port);
    });
  }

  private keep(lines: Record<string, unknown>[]): void {
    this.logs.push(...lines);
    if (LOG_DIR && lines.length > 0) {
      mkdirSync(LOG_DIR, { recursive: true });
      appendFileSync(join(LOG_DIR, `${this.name.replace(':', '-')}.log`), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    }
  }

  /** Sends a signal the suite means (its exit is then expected). */
  signal(signal: 'SIGTERM' | 'SIGKILL'): void {
    this.sent = signal;
    this.server?.proc.kill(signal);
  }

  /** Resolves once the current incarnation has exited (true), or false after `ms`. */
  async exited(ms: number): Promise<boolean> {
    if (!this.server) return true;
    return Promise.race([this.server.exited.then(() => true), Bun.sleep(ms).then(() => false)]);
  }

  /** GET /readyz: true on 200 (false on anything else, or no answer within a second). */
  async ready(): Promise<boolean> {
    try {
      const response = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      return response.status === 200;
    } catch {
      return false;
    }
  }

  /**
   * What this instance's scheduler logged (background/scheduler): run ids persisted
   * (`scan persisted`), and passes that failed (`scheduled scan failed`, by
   * timeframe and time: a run can be committed and the pass still fail after it).
   */
  schedulerLog(): { persisted: string[]; failed: { timeframe: string; at: number }[] } {
    this.keep(this.server?.logs.splice(0) ?? []);
    return {
      persisted: this.logs.filter((l) => l.msg === 'scan persisted').map((l) => String(l.runId)),
      failed: this.logs.filter((l) => l.msg === 'scheduled scan failed').map((l) => ({ timeframe: String(l.timeframe), at: Date.parse(String(l.time)) })),
    };
  }

  /** SIGKILL at once: for a test process that is being interrupted. */
  killNow(): void {
    if (this.running) this.signal('SIGKILL');
  }

  /** Stops it for good: SIGTERM, SIGKILL after 10 s. */
  async shutdown(): Promise<void> {
    if (!this.running) return;
    this.sent = 'SIGTERM';
    await this.server!.stop(10_000);
  }
}
