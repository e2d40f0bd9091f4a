/**
 * What a client developer does with the published document (issue 12):
 * generate types with openapi-typescript, write a small client against them,
 * type-check it with strict tsc — integers must be `number` (not
 * `string | number`), the confluence vote `-1 | 0 | 1`, the API-Version header
 * sendable — and run it against a live server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS from 'openapi-typescript';
import { smallSyntheticMarket } from '../helpers/app';
import { servedDocument } from '../helpers/openapi';
import { listenTestServer, type TestServer } from '../helpers/server';

/** A small client as a developer would write it from the generated types. */
const CLIENT = `
import type { components, paths } from './api';

type Json<P extends keyof paths, S extends number = 200> = paths[P]['get']['responses'] extends Record<S, { content: { 'application/json': infer T } }> ? T : never;
type Params<P extends keyof paths> = paths[P]['get']['parameters'];
type Query<P extends keyof paths> = 'query' extends keyof Params<P> ? Params<P>['query' & keyof Params<P>] : Record<string, never>;
type ApiVersion = components['parameters']['ApiVersion'];

async function get<P extends keyof paths>(base: string, path: P, query: Query<P>, version?: ApiVersion): Promise<Json<P>> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, string | number | undefined>)) if (value !== undefined) search.set(key, String(value));
  const response = await fetch(base + path + '?' + search.toString(), { headers: version ? { 'API-Version': version } : {} });
  if (!response.ok) {
    const error: components['schemas']['Error'] = (await response.json()) as components['schemas']['Error'];
    throw new Error(path + ': ' + response.status + ' ' + error.error);
  }
  return (await response.json()) as Json<P>;
}

export async function run(base: string): Promise<string[]> {
  const lines: string[] = [];
  const bars = await get(base, '/api/bars', { symbol: 'AAPL', range: '1mo' }, '1.1.0');
  const closes: number[] = bars.bars.map((bar: components['schemas']['PriceBar']) => bar.close);
  lines.push('bars ' + closes.length);

  const page = await get(base, '/api/sector-rotation/v2', { limit: 5, order: 'asc' });
  const meta: components['schemas']['PageMeta'] = page.pagination;
  const nextOffset: number = meta.offset + meta.limit;
  // @ts-expect-error an integer is a number, never a string
  const notAString: string = meta.limit;
  lines.push('page ' + nextOffset + ' ' + typeof notAString);

  const health = await get(base, '/api/health', {});
  const uptime: number = health.uptime ?? 0;
  lines.push('health ' + health.status + ' ' + (uptime >= 0));

  const breakouts = await get(base, '/api/breakouts', { timeframe: 'daily', limit: 3 });
  const signals: components['schemas']['BreakoutSignal'][] = breakouts.rankedSignals;
  lines.push('signals ' + signals.map((s) => s.symbol + ':' + s.finalScore.toFixed(1)).join(','));

  const confluence = await get(base, '/api/confluence', { symbol: 'MSFT', lookback: 20 });
  const votes: (-1 | 0 | 1)[] = confluence.factors.map((f) => f.vote);
  // @ts-expect-error a vote is a number, not a string
  const voteText: string = confluence.factors[0].vote;
  lines.push('votes ' + votes.length + ' ' + typeof voteText);

  const ledger = await get(base, '/api/transparency/ledger', { limit: 2, since: '2020-01-01' });
  const count: number = ledger.count;
  lines.push('ledger ' + count + ' ' + ledger.records.length);
  return lines;
}
`;

describe('a client generated with openapi-typescript', () => {
  let server: TestServer;
  let dir: string;
  beforeAll(async () => {
    server = await listenTestServer({ provider: smallSyntheticMarket(), env: { RATE_LIMIT_QUOTA: '100000' } });
    dir = await mkdtemp(join(tmpdir(), 'breakline-client-'));
    const doc = await servedDocument((path) => server.get(path));
    await writeFile(join(dir, 'api.ts'), await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]));
    await writeFile(join(dir, 'client.ts'), CLIENT);
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('type-checks under strict tsc', () => {
    // In the temporary folder: a developer's project, not ours (no tsconfig, no @types).
    const tsc = Bun.spawnSync(
      [join(import.meta.dir, '../../node_modules/.bin/tsc'), '--noEmit', '--strict', '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'bundler', '--lib', 'ES2022,DOM', '--types', '', 'client.ts'],
      { cwd: dir },
    );
    const output = tsc.stdout.toString() + tsc.stderr.toString();
    expect(output).toBe('');
    expect(tsc.exitCode).toBe(0);
  });

  it('runs against a live server', async () => {
    const { run } = (await import(join(dir, 'client.ts'))) as { run: (base: string) => Promise<string[]> };
    const lines = await run(`http://127.0.0.1:${server.port}`);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatch(/^bars \d+$/);
    expect(lines[1]).toBe('page 5 number');
    expect(lines[2]).toBe('health ok true');
    expect(lines[3]).toMatch(/^signals [A-Z.]+:\d+\.\d(,[A-Z.]+:\d+\.\d){0,2}$/);
    expect(lines[4]).toBe('votes 7 number');
    expect(lines[5]).toMatch(/^ledger \d+ [0-2]$/);
  }, 120_000);
});
