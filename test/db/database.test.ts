import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { migrations } from '../../drizzle/migrations';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, pgliteTemplateCurrent, type Database } from '../../src/db/client';
import { BarsRepository } from '../../src/db/repositories/bars';
import type { BarSeries } from '../../src/providers/types';
import { openFreshDatabase, usingPostgres } from '../helpers/db';

function series(values: number[], source = 'test'): BarSeries {
  const n = values.length;
  const day = 86_400_000;
  const f = (g: (v: number, i: number) => number) => Float64Array.from(values, g);
  return {
    symbol: 'ABC',
    timeframe: 'daily',
    source,
    ts: f((_, i) => Date.UTC(2024, 0, 2) + i * day),
    open: f((v) => v),
    high: f((v) => v + 1),
    low: f((v) => v - 1),
    close: f((v) => v + 0.5),
    volume: f((_, i) => 1000 + i),
  };
  void n;
}

describe(`database (${usingPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openFreshDatabase());
  });
  afterAll(() => close());

  it('embeds exactly the SQL migrations drizzle-kit wrote (run npm run db:generate after a schema change)', () => {
    const journal = JSON.parse(readFileSync('drizzle/meta/_journal.json', 'utf8')) as { entries: { tag: string }[] };
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.map((m) => m.tag)).toEqual(journal.entries.map((e) => e.tag));
    for (const m of migrations) expect(m.sql).toBe(readFileSync(`drizzle/${m.tag}.sql`, 'utf8'));
  });

  it('starts a new embedded database from a current template (run npm run db:generate after a schema change or a PGlite upgrade)', async () => {
    expect(await pgliteTemplateCurrent()).toBe(true);
  });

  it.skipIf(usingPostgres)('opens an embedded database made from the template again, with what was written to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'breakline-template-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      await new BarsRepository(first.db).save(series([1, 2]), new Date('2024-01-06T00:00:00Z'));
      await first.close();
      const again = await openDatabase({ dataDir: dir });
      expect((await new BarsRepository(again.db).load('test', 'ABC', 'daily')).close).toEqual(Float64Array.from([1.5, 2.5]));
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(usingPostgres)('removes the unpacking folder a killed first start left, never a live process\'s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'breakline-partial-'));
    const dataDir = join(dir, 'pgdata');
    // A process that has ended: its pid names no live process now.
    const ended = Bun.spawnSync(['true']).pid;
    const folders = {
      stale: `${dataDir}.partial-${ended}`,
      live: `${dataDir}.partial-1`, // init: always running
      other: `${dataDir}.partial-x1`,
      otherDir: join(dir, `elsewhere.partial-${ended}`),
    };
    try {
      for (const folder of Object.values(folders)) {
        mkdirSync(folder);
        writeFileSync(join(folder, 'PG_VERSION'), '17\n');
      }
      const database = await openDatabase({ dataDir });
      await database.close();
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
      expect(Object.fromEntries(Object.entries(folders).map(([name, folder]) => [name, existsSync(folder)]))).toEqual({ stale: false, live: true, other: true, otherDir: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('records each migration exactly once', async () => {
    const rows = await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const count = (rows as unknown as { rows?: { n: number }[] }).rows?.[0]?.n ?? (rows as unknown as { n: number }[])[0]?.n;
    expect(count).toBe(migrations.length);
    await database.ping();
  });

  it('stores a series and reads the same numbers back, oldest first', async () => {
    const repo = new BarsRepository(database.db);
    const original = series([10, 11, 12, 13]);
    await repo.save(original, new Date('2024-01-06T00:00:00Z'));
    const loaded = await repo.load('test', 'ABC', 'daily');
    expect(Array.from(loaded.ts)).toEqual(Array.from(original.ts));
    expect(Array.from(loaded.close)).toEqual([10.5, 11.5, 12.5, 13.5]);
    const entry = await repo.cacheEntry('test', 'ABC', 'daily');
    expect(entry).toMatchObject({ barCount: 4, firstTs: original.ts[0], lastTs: original.ts[3] });
  });

  it('refreshes from the last stored bar without touching earlier ones', async () => {
    const repo = new BarsRepository(database.db);
    const revised = series([99, 99, 12.25, 14, 15]); // a vendor that rewrote the first two bars
    await repo.save(revised, new Date('2024-01-08T00:00:00Z'), revised.ts[2]);
    const loaded = await repo.load('test', 'ABC', 'daily');
    expect(Array.from(loaded.open)).toEqual([10, 11, 12.25, 14, 15]);
    expect((await repo.cacheEntry('test', 'ABC', 'daily'))?.fetchedAt.toISOString()).toBe('2024-01-08T00:00:00.000Z');
  });

  it('keeps two sources of the same symbol apart', async () => {
    const repo = new BarsRepository(database.db);
    await repo.save(series([50], 'other'), new Date());
    expect((await repo.load('other', 'ABC', 'daily')).ts.length).toBe(1);
    expect((await repo.load('test', 'ABC', 'daily')).ts.length).toBe(5);
  });
});
