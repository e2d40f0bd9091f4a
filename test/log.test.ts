/**
 * Lines on stderr are written in batches (src/log.ts): none is lost or
 * reordered whether the process exits by `process.exit`, by an uncaught
 * error, or by ending, over many batches; a warning goes out at once.
 */
import { describe, expect, it, setSystemTime } from 'bun:test';
import { join } from 'node:path';

import { createLogger } from '../src/log';

const LOG = join(import.meta.dir, '../src/log.ts');

/** Runs `body` in a child process with `log` (a logger at info on stderr); its stderr's JSON lines. */
async function childLines(body: string): Promise<{ lines: { msg: string; level: string; i?: number }[]; exitCode: number }> {
  const script = `import { createLogger } from ${JSON.stringify(LOG)};\nconst log = createLogger('info');\n${body}`;
  const child = Bun.spawn([process.execPath, '-e', script], { stdout: 'ignore', stderr: 'pipe' });
  const text = await new Response(child.stderr).text();
  const exitCode = await child.exited;
  const lines = text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; level: string; i?: number });
  return { lines, exitCode };
}

describe('batched log lines on stderr', () => {
  it('writes every line, in order, across many batches, by process.exit', async () => {
    const { lines, exitCode } = await childLines(`for (let i = 0; i < 2000; i++) log.info('request', { i, route: '/api/bars' });\nprocess.exit(3);`);
    expect(exitCode).toBe(3);
    expect(lines.length).toBe(2000);
    expect(lines.map((line) => line.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });

  it('writes the held lines when an uncaught error ends the process, and when it just ends', async () => {
    const thrown = await childLines(`log.info('one'); log.info('two'); setTimeout(() => { log.info('three'); throw new Error('boom'); }, 5);`);
    expect(thrown.exitCode).not.toBe(0);
    expect(thrown.lines.map((line) => line.msg)).toEqual(['one', 'two', 'three']);
    const ended = await childLines(`log.info('only');`);
    expect(ended.exitCode).toBe(0);
    expect(ended.lines.map((line) => line.msg)).toEqual(['only']);
  });

  it('writes a warning at once, with the lines held before it', async () => {
    // The child writes a warning, then keeps its event loop busy for 300 ms (no timer can flush meanwhile):
    // the warning and the line held before it arrive while it is busy, before the line written after.
    const script = `import { createLogger } from ${JSON.stringify(LOG)};\nconst log = createLogger('info');\nlog.info('held'); log.warn('warned'); const until = Date.now() + 300; while (Date.now() < until);\nlog.info('after');`;
    const child = Bun.spawn([process.execPath, '-e', script], { stdout: 'ignore', stderr: 'pipe' });
    const reader = child.stderr.getReader();
    let seen = '';
    while (!seen.includes('warned')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    await child.exited;
    expect(seen).toContain('"msg":"held"');
    expect(seen.indexOf('"msg":"held"')).toBeLessThan(seen.indexOf('"msg":"warned"'));
    expect(seen).not.toContain('"msg":"after"');
  });
});

describe('the access-log line', () => {
  it('is the line pino writes for the same fields, byte for byte, in order with the other lines', () => {
    const lines: string[] = [];
    const log = createLogger('info', (line) => lines.push(line));
    const cases: [string, string, number, number, string][] = [
      ['GET', '/api/bars', 200, 0.84, 'req_abc123'],
      ['GET', '/api/snapshot', 304, 12, 'caller.id:1-_'],
      ['POST', '/api/watchlists/:id', 429, 1234.56, 'x'],
      ['GET', 'unmatched', 404, 0, 'req_"\\quoted'],
    ];
    try {
      for (const [i, [method, route, status, durationMs, requestId]] of cases.entries()) {
        setSystemTime(new Date(Date.UTC(2026, 10, 20, 18, 0, 0, i * 7)));
        log.access(method, route)!(status, durationMs, requestId);
        log.info('request', { method, route, status, durationMs, requestId });
        // The time is made once a millisecond: the next one is written afresh.
        setSystemTime(new Date(Date.UTC(2026, 10, 20, 18, 0, 1, i * 7)));
        log.access(method, route)!(status, durationMs, requestId);
        log.info('request', { method, route, status, durationMs, requestId });
      }
    } finally {
      setSystemTime();
    }
    expect(lines).toHaveLength(cases.length * 4);
    for (let i = 0; i < lines.length; i += 2) expect(lines[i]).toBe(lines[i + 1]!);
    expect(lines[0]).toBe('{"level":"info","time":"2026-11-20T18:00:00.000Z","method":"GET","route":"/api/bars","status":200,"durationMs":0.84,"requestId":"req_abc123","msg":"request"}');
    expect(lines[2]).toContain('"time":"2026-11-20T18:00:01.000Z"');
  });

  it('is not written below level info', () => {
    const lines: string[] = [];
    expect(createLogger('warn', (line) => lines.push(line)).access('GET', '/api/bars')).toBeUndefined();
    expect(createLogger('debug', (line) => lines.push(line)).access('GET', '/api/bars')).toBeDefined();
  });
});
