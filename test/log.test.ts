/**
 * Lines on stderr are written in batches (src/log.ts): none is lost or
 * reordered whether the process exits by `process.exit`, by an uncaught
 * error, or by ending, over many batches; a warning goes out at once.
 */
import { describe, expect, it } from 'bun:test';
import { join } from 'node:path';

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
