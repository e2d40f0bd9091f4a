/**
 * clients/typescript (issue 31): the package's types are generated from the
 * running app's OpenAPI document with openapi-typescript, the README's example
 * type-checks against them under strict tsc (as a developer's project: no
 * tsconfig, no @types) and runs against a live server. orval (a dev
 * dependency) generates from the same document; @hey-api/openapi-ts too where
 * it can run (beside a TypeScript before 7: see its test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS from 'openapi-typescript';
import { smallSyntheticMarket } from '../helpers/app';
import { servedDocument } from '../helpers/openapi';
import { listenTestServer, type TestServer } from '../helpers/server';

const ROOT = join(import.meta.dir, '../..');
const PACKAGE = join(ROOT, 'clients/typescript');
const BIN = join(ROOT, 'node_modules/.bin');
const TYPESCRIPT_MAJOR = Number((JSON.parse(readFileSync(join(ROOT, 'node_modules/typescript/package.json'), 'utf8')) as { version: string }).version.split('.')[0]);

/** The README's first ```ts block, importing the package from its source. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(join(PACKAGE, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('clients/typescript/README.md has no ```ts example');
  return block.replace("from '@breakline/client'", "from './src/index'");
}

describe('clients/typescript', () => {
  let server: TestServer;
  let dir: string;
  let documentPath: string;
  beforeAll(async () => {
    server = await listenTestServer({ provider: smallSyntheticMarket(), env: { RATE_LIMIT_QUOTA: '100000' } });
    dir = await mkdtemp(join(tmpdir(), 'breakline-ts-client-'));
    await mkdir(join(dir, 'src'));
    const doc = await servedDocument((path) => server.get(path));
    documentPath = join(dir, 'openapi.json');
    await writeFile(documentPath, JSON.stringify(doc));
    await writeFile(join(dir, 'src/schema.d.ts'), await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]));
    await writeFile(join(dir, 'src/index.ts'), await readFile(join(PACKAGE, 'src/index.ts'), 'utf8'));
    await writeFile(join(dir, 'example.ts'), await readmeExample());
    // openapi-fetch, as the package's dependency, from the repository's install.
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("type-checks the README example against types generated from the app's document, under strict tsc", () => {
    const tsc = Bun.spawnSync(
      [join(BIN, 'tsc'), '--noEmit', '--strict', '--target', 'ES2022', '--module', 'ESNext', '--moduleResolution', 'bundler', '--lib', 'ES2022,DOM,DOM.AsyncIterable', '--types', '', 'example.ts'],
      { cwd: dir },
    );
    expect(tsc.stdout.toString() + tsc.stderr.toString()).toBe('');
    expect(tsc.exitCode).toBe(0);
  });

  it('runs the README example against a live server', async () => {
    const { example } = (await import(join(dir, 'example.ts'))) as { example: (base: string) => Promise<string[]> };
    expect(await example(`http://127.0.0.1:${server.port}`)).toEqual(['closes 21', 'sessions true', 'signals true']);
  }, 60_000);

  // @hey-api/openapi-ts 0.95 prints with the TypeScript compiler API, which TypeScript 7 (this repository's) no longer
  // ships (`ts.NewLineKind` is undefined), and takes `typescript` as a peer dependency, so it cannot be a dependency
  // here: npm refuses an override of the peer (ERESOLVE), and a `typescript5` alias takes over the `tsc` bin. It runs
  // when installed beside a TypeScript before 7 (npx -p typescript@5 -p @hey-api/openapi-ts).
  it.skipIf(!existsSync(join(BIN, 'openapi-ts')) || TYPESCRIPT_MAJOR >= 7)('generates a client with @hey-api/openapi-ts without errors (skipped beside TypeScript 7)', () => {
    const run = Bun.spawnSync([join(BIN, 'openapi-ts'), '-i', documentPath, '-o', join(dir, 'hey-api')], { cwd: dir });
    expect(run.exitCode, run.stderr.toString()).toBe(0);
    expect(existsSync(join(dir, 'hey-api'))).toBe(true);
  }, 60_000);

  it('generates a client with orval without errors', () => {
    const run = Bun.spawnSync([join(BIN, 'orval'), '--input', documentPath, '--output', join(dir, 'orval/api.ts')], { cwd: dir });
    expect(run.exitCode, run.stderr.toString()).toBe(0);
    expect(existsSync(join(dir, 'orval/api.ts'))).toBe(true);
  }, 60_000);
});
