/**
 * `breakline capacity` end to end, from source: a local instance on the
 * embedded defaults, a two-step ramp of a small mix with streams, the JSON
 * result. Figures are not asserted (the machine is shared): the shape, the
 * counts the run controls, and that it cleaned up after itself.
 */
import { describe, expect, it } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../../../src/cli/capacity/run';
import { usingPostgres } from '../../helpers/db';

const index = new URL('../../../src/index.ts', import.meta.url).pathname;

async function capacity(args: string[]) {
  const proc = Bun.spawn([process.execPath, index, 'capacity', ...args], { stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env.PATH ?? '' } });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

// Its servers are spawned on the embedded defaults whatever DATABASE_URL says: once is enough.
describe.skipIf(usingPostgres)('breakline capacity', () => {
  it('prints its own help', async () => {
    const { stdout, code } = await capacity(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--allow-remote');
    expect(stdout).toContain('--target "rps=3000,sse=20000,p99=50ms"');
    expect(stdout).toContain('--dimensions A,B');
  });

  it('refuses a remote URL without --allow-remote, with exit code 64', async () => {
    const { stderr, code } = await capacity(['--url', 'http://192.0.2.1:3000']);
    expect(code).toBe(64);
    expect(stderr).toContain('--allow-remote');
  });

  it(
    'ramps a local instance in steps and reports each, with a plan for the target',
    async () => {
      const { stdout, stderr, code } = await capacity(['--json', '--steps', '2', '--step-seconds', '2', '--rps', '20', '--sse', '8', '--route', '/api/breakouts', '--route', '2:/api/health', '--p99', '60s', '--target', 'rps=100,sse=40', '--time-limit', '200']);
      expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
      const result = JSON.parse(stdout) as RunResult;
      expect(result.target).toBe('local');
      expect(result.steps.map((s) => s.offeredRps)).toEqual([10, 20]);
      expect(result.steps.map((s) => s.sse.clients)).toEqual([4, 8]);
      expect(result.steps[0]!.routes.map((r) => r.label)).toEqual(['/api/breakouts', '/api/health']);
      expect(result.steps[0]!.routes[1]!.offeredRps).toBeCloseTo(20 / 3, 6); // weight 2 of 3 at step 1 of 2
      for (const s of result.steps) expect(s.cpuCores).toBeGreaterThan(0); // read from /proc of the local instance
      expect(result.plan.needs.map((n) => n.resource)).toContain('CPU');
      expect(stderr).toContain('capacity: step 2/2');
      // The instance and the stream clients are gone with the run.
      const left = Bun.spawnSync(['pgrep', '-f', `${index} capacity --role`]).stdout.toString().trim();
      expect(left).toBe('');
    },
    { timeout: 300_000 },
  );
});

// Its servers are spawned on the embedded defaults whatever DATABASE_URL says: once is enough.
describe.skipIf(usingPostgres)('breakline capacity --smoke', () => {
  it('passes a ratio up to 1.5× the record and fails above it', async () => {
    const { judge } = await import('../../../src/cli/capacity/smoke');
    const recorded = { ratio: 4, recordedAt: '2026-11-27T00:00:00.000Z', loadAverage: 1 };
    expect(judge(5.9, recorded)).toEqual({ passed: true, limit: 6 });
    expect(judge(8, recorded)).toEqual({ passed: false, limit: 6 }); // a 2× slowdown of the service
    expect(judge(100, undefined)).toEqual({ passed: true });
  });

  it(
    'measures the hot routes beside a bare handler and exits 1 on a ratio far above the record',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'capacity-smoke-'));
      const baseline = join(dir, 'baseline.json');
      // A record no real service could keep: the same cost as the bare handler's, a tenth of it.
      writeFileSync(baseline, JSON.stringify({ ratio: 0.1, recordedAt: '2026-11-27T00:00:00.000Z', loadAverage: 1 }));
      try {
        const { stdout, stderr, code } = await capacity(['--smoke', '--json', '--baseline', baseline, '--time-limit', '200']);
        expect({ code, stderr: code === 1 ? '' : stderr }).toEqual({ code: 1, stderr: '' });
        const result = JSON.parse(stdout) as { ratio: number; passed: boolean; limit: number; windows: { server: string; requests: number }[] };
        expect(result.passed).toBe(false);
        expect(result.limit).toBeCloseTo(0.15, 10);
        expect(result.ratio).toBeGreaterThan(1); // the service does more than hand back bytes
        // Three rounds in turns; the warm-up turns are not counted.
        expect(result.windows.map((w) => w.server)).toEqual(['instance', 'bare', 'instance', 'bare', 'instance', 'bare']);
        for (const w of result.windows) expect(w.requests).toBeGreaterThan(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    { timeout: 300_000 },
  );
});
