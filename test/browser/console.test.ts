/**
 * The web console in headless Chromium against a real server (a loopback
 * port, the synthetic market over a small universe, an in-memory database),
 * reached through a TCP proxy the tests can cut. Run by `npm run
 * test:browser`, not by `npm test`; skipped with a message naming what is
 * missing on a machine without Chromium.
 *
 * What it holds: the signals page lists what /api/breakouts returns, in its
 * order; a signal's chart draws the trigger, target and stop at the API's
 * prices (read back from the chart's own series); an event published on the
 * bus appears in the list without a reload; a dropped stream resumes with
 * Last-Event-ID and says so; signing in, creating a watchlist and an API key
 * work; no page shows a console error or a failed request. Screenshots of
 * each page at both widths go to a temporary directory, or over the tracked
 * docs/screenshots/ with UPDATE_SCREENSHOTS=1 (test/browser/browser.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Signal } from '../../src/domain/signal';
import { runReplay } from '../../src/jobs/replay/run';
import { smallSyntheticMarket } from '../helpers/app';
import { listenTestServer, type TestServer } from '../helpers/server';
import { sampleSignal } from '../helpers/sse';
import { tcpProxy } from '../helpers/tcp-proxy';
import { CHROMIUM_MISSING, launch, screenshot, SCREENSHOTS, TRACKED_SCREENSHOTS, VIEWPORTS, watch } from './browser';

if (CHROMIUM_MISSING) console.warn(CHROMIUM_MISSING);
else console.info(`console screenshots: ${SCREENSHOTS}${SCREENSHOTS === TRACKED_SCREENSHOTS ? ' (the tracked ones, UPDATE_SCREENSHOTS=1)' : ' (UPDATE_SCREENSHOTS=1 writes the tracked docs/screenshots/ instead)'}`);

/** Every signal of the daily ranked list, in the API's order, read through its cursors. */
async function rankedFromApi(server: TestServer): Promise<Signal[]> {
  const signals: Signal[] = [];
  let cursor: string | null = null;
  do {
    const response = await server.get(`/api/breakouts?timeframe=daily&limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    const page = (await response.json()) as { items: Signal[]; pagination: { hasMore: boolean; nextCursor: string | null } };
    signals.push(...page.items);
    cursor = page.pagination.hasMore ? page.pagination.nextCursor : null;
  } while (cursor);
  return signals;
}

/** A signal the list has never seen, ranked first (score 99.9), published as `breakouts.new` would be. */
const liveSignal = (n: number): Signal => ({ ...sampleSignal(1000 + n), finalScore: 99.9, scoreBand: 'elite' });

describe.skipIf(CHROMIUM_MISSING !== undefined)('the web console in Chromium', () => {
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let browser: Browser;
  let base: string;
  let token: string;
  let replayed: ReturnType<typeof runReplay>;

  beforeAll(async () => {
    // Each page loads twice (two widths), three tabs at a time, from one address: the replay record page's 13 costly
    // reads (scorecard and 12 months) per load are more than one person's quota (10 a minute) would allow.
    server = await listenTestServer({ provider: smallSyntheticMarket(), env: { SSE_RETRY_MS: '300', RATE_LIMIT_COSTLY_QUOTA: '200' } });
    proxy = await tcpProxy({ host: '127.0.0.1', port: server.port });
    base = `http://127.0.0.1:${proxy.port}`;
    browser = await launch();
    token = (await server.ctx.sessionCookie('alice', 'pro', 3600)).slice('__session='.length);
    // Started now and awaited before the record pages: it runs while the tests before them wait on the browser.
    replayed = runReplay({ ...server.ctx.services }, { timeframe: 'daily', from: '2026-05-01', to: '2026-10-30', universe: { kind: 'default' }, benchmark: 'SPY' }, { origin: 'test' });
    replayed.catch(() => {}); // its failure is reported by the test that awaits it
  });
  afterAll(async () => {
    await browser?.close();
    await proxy?.stop();
    await server?.close();
  });

  async function open(path: string, viewport: keyof typeof VIEWPORTS = 'desktop', signedIn = false): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: VIEWPORTS[viewport] });
    if (signedIn) await context.addCookies([{ name: '__session', value: token, url: base, sameSite: 'Strict' }]);
    const page = await context.newPage();
    await page.goto(`${base}${path}`);
    return { context, page };
  }

  it('redirects a browser from / to the console; an API client still gets the 404', async () => {
    const { context, page } = await open('/');
    expect(new URL(page.url()).pathname).toBe('/console');
    await context.close();
    const api = await server.get('/', { headers: { accept: 'application/json' } });
    expect(api.status).toBe(404);
    expect(((await api.json()) as { code: string }).code).toBe('not_found');
  });

  it('lists what /api/breakouts returns, in its order', async () => {
    const ranked = await rankedFromApi(server);
    expect(ranked.length).toBeGreaterThan(0);
    const { context, page } = await open('/console/signals');
    await page.locator('table.signals tbody tr').first().waitFor();
    await page.waitForFunction((n) => document.querySelector('.summary')?.textContent?.startsWith(`${n} of ${n} signals ·`), ranked.length);
    const shown = await page.locator('table.signals tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-signal-id')));
    expect(shown).toEqual(ranked.slice(0, 50).map((s) => s.id));
    // The first row's cells are the API's numbers.
    const first = page.locator('table.signals tbody tr').first();
    expect(await first.locator('td').nth(6).textContent()).toBe(ranked[0]!.triggerPrice.toFixed(2));
    expect(await first.locator('td').nth(7).textContent()).toBe(ranked[0]!.target1.toFixed(2));
    // A filter keeps only what matches (the band of the first signal).
    await page.selectOption('select[name=band]', ranked[0]!.scoreBand);
    // A filter needs the whole list: the pages past the first are read now (signals-model).
    await page.waitForFunction(() => /^\d+ of \d+ signals ·/.test(document.querySelector('.summary')?.textContent ?? ''));
    const bands = await page.locator('table.signals tbody tr .band').allTextContents();
    expect(bands.length).toBe(Math.min(50, ranked.filter((s) => s.scoreBand === ranked[0]!.scoreBand).length));
    expect(new Set(bands)).toEqual(new Set([ranked[0]!.scoreBand]));
    await context.close();
  });

  it("draws a signal's chart with its trigger, target and stop at the API's prices", async () => {
    const ranked = await rankedFromApi(server);
    const signal = ranked.find((s) => s.stopLoss !== null)!;
    const bars = (await (await server.get(`/api/bars?symbol=${signal.symbol}&range=6mo&timeframe=daily`)).json()) as { bars: unknown[] };
    const { context, page } = await open(`/console/signals/${encodeURIComponent(signal.id)}`);
    await page.locator('#chart[data-ready="true"]').waitFor();
    const chart = await page.locator('#chart').evaluate((element) => {
      const api = (element as HTMLElement & { chartApi: import('../../src/console/app/parts/chart').SignalChart }).chartApi;
      return {
        lines: api.candles.priceLines().map((line) => ({ title: line.options().title, price: line.options().price })),
        candles: api.candles.data().length,
        volume: api.volume.data().length,
      };
    });
    // The stream's quotes add a line of their own ('last'); the signal's levels are the others.
    expect(chart.lines.filter((line) => line.title !== 'last')).toEqual([
      { title: 'trigger (pivot)', price: signal.triggerPrice },
      { title: 'target 1', price: signal.target1 },
      { title: 'stop', price: signal.stopLoss! },
    ]);
    expect(chart.candles).toBe(bars.bars.length);
    expect(chart.volume).toBe(bars.bars.length);
    expect(await page.locator('[data-level="trigger"]').textContent()).toBe(signal.triggerPrice.toFixed(2));
    // No model is configured in the test server: the page says so and never asks /api/explain.
    await page.locator('[data-no-model]').waitFor();
    await context.close();
  });

  it('shows a breakouts.new event published on the bus in the list, without a reload', async () => {
    const { context, page } = await open('/console/signals');
    await page.locator('[data-stream-state="live"]').waitFor();
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const signal = liveSignal(1);
    await server.ctx.services.bus.publish('breakouts.new', { signal });
    const row = page.locator(`tr[data-signal-id="${signal.id}"]`);
    await row.waitFor();
    expect(await row.getAttribute('class')).toBe('fresh');
    expect(await page.locator('table.signals tbody tr').first().getAttribute('data-signal-id')).toBe(signal.id);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await context.close();
  });

  it('resumes a dropped stream with Last-Event-ID, receives what was published meanwhile, and says so', async () => {
    const { context, page } = await open('/console/signals');
    await page.locator('[data-stream-state="live"]').waitFor();
    await server.ctx.services.bus.publish('breakouts.new', { signal: liveSignal(2) });
    await page.locator(`tr[data-signal-id="${liveSignal(2).id}"]`).waitFor();
    await proxy.stop(); // every connection through the proxy is cut, and nothing answers
    await page.locator('[data-stream-state="reconnecting"]').waitFor();
    expect(await page.locator('.stream').textContent()).toContain('reconnecting to resume after event');
    await server.ctx.services.bus.publish('breakouts.new', { signal: liveSignal(3) }); // while the browser is cut off
    await proxy.start();
    await page.locator(`tr[data-signal-id="${liveSignal(3).id}"]`).waitFor();
    expect(await page.locator('.stream').textContent()).toContain('reconnected and resumed after event');
    await context.close();
  });

  it('works from the keyboard: the skip link first, then the filters; a sort header and a symbol answer Enter', async () => {
    const { context, page } = await open('/console/signals');
    await page.locator('table.signals tbody tr').first().waitFor();
    const focused = () => page.evaluate(() => ({ text: document.activeElement?.textContent?.trim(), id: document.activeElement?.id, name: (document.activeElement as HTMLSelectElement | null)?.name }));
    await page.keyboard.press('Tab');
    expect((await focused()).text).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect((await focused()).id).toBe('main');
    await page.keyboard.press('Tab');
    expect((await focused()).name).toBe('timeframe');
    await page.locator('button.sort:has-text("Score")').focus();
    await page.keyboard.press('Enter');
    await page.locator('th[aria-sort="descending"]:has-text("Score")').waitFor();
    const scores = (await page.locator('table.signals tbody tr td:nth-of-type(4)').allTextContents()).map(Number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const first = page.locator('table.signals tbody tr th a').first();
    const symbol = await first.textContent();
    await first.focus();
    await page.keyboard.press('Enter');
    await page.locator('#signal-title').waitFor();
    expect(await page.locator('#signal-title').textContent()).toStartWith(`${symbol} ·`);
    expect((await focused()).id).toBe('main');
    await context.close();
  });

  it('says what went wrong instead of a blank page (rate-limited, not ready, offline) and recovers by itself', async () => {
    const { context, page } = await open('/console/market');
    await page.locator('[aria-label="Sector rotation"] tbody tr').first().waitFor();
    const answers: [number, string, Record<string, string>][] = [
      [429, 'rate_limited', { 'retry-after': '1' }],
      [503, 'unavailable', { 'retry-after': '1' }],
    ];
    for (const [status, code, headers] of answers) {
      await page.route('**/api/sector-rotation', (route) => route.fulfill({ status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ error: `${code} for the test`, requestId: 'req_test', code }) }));
      await page.reload();
      await page.locator('.problem').first().waitFor();
      const text = await page.locator('.problem').first().textContent();
      expect(text).toContain(status === 429 ? 'Slow down.' : 'Not ready yet.');
      expect(text).toContain('Trying again in 1 s.');
      await page.unroute('**/api/sector-rotation');
      // It asks again by itself after the wait the server named, and the table comes.
      await page.locator('[aria-label="Sector rotation"] tbody tr').first().waitFor();
      expect(await page.locator('.problem').count()).toBe(0);
    }
    await page.route('**/api/sector-rotation', (route) => route.abort('internetdisconnected'));
    await page.reload();
    await page.locator('.problem:has-text("The server cannot be reached.")').waitFor();
    expect(await page.locator('h1').first().textContent()).toBe('Market');
    await context.close();
  });

  it('signs in with a minted token, creates a watchlist and an API key (shown once, and it works)', async () => {
    const { context, page } = await open('/console/account');
    await page.fill('textarea[name=token]', token);
    await page.click('button:has-text("Sign in")');
    await page.locator('[data-user="alice"]').waitFor();

    await page.fill('form[aria-label="New watchlist"] input[name=name]', 'Semis');
    await page.fill('form[aria-label="New watchlist"] input[name=symbols]', 'nvda, amd');
    await page.click('button:has-text("Create watchlist")');
    await page.locator('[data-watchlist="Semis"]').waitFor();
    const lists = (await (await server.get('/api/watchlists', { headers: { cookie: `__session=${token}` } })).json()) as { items: { name: string; symbols: { symbol: string }[] }[] };
    expect(lists.items.map((w) => [w.name, w.symbols.map((s) => s.symbol).sort()])).toEqual([['Semis', ['AMD', 'NVDA']]]);

    await page.click('a:has-text("API keys")');
    await page.fill('form[aria-label="New API key"] input[name=name]', 'trading bot');
    await page.click('button:has-text("Create key")');
    const key = (await page.locator('[data-new-key]').textContent())!.trim();
    expect(key).toMatch(/^bk_[0-9A-Za-z]{43}$/);
    const used = await server.get('/api/bars?symbol=AAPL&range=1mo', { headers: { authorization: `Bearer ${key}` } });
    expect(used.status).toBe(200);
    expect(used.headers.get('x-ratelimit-limit')).toBe(String(server.ctx.config.rateLimit.tierQuotas.pro));
    // Shown once: after a reload the key is listed by its prefix only.
    await page.reload();
    await page.locator(`[data-key-prefix="${key.slice(0, 11)}"]`).waitFor();
    expect(await page.locator('[data-new-key]').count()).toBe(0);
    await context.close();
  });

  it('runs a replay for the record pages (the server under test has none of its own)', async () => {
    const run = await replayed;
    expect(run.signals).toBeGreaterThan(0);
  });

  const PAGES: { name: string; path: string; ready: string[]; signedIn?: boolean }[] = [
    { name: 'signals', path: '/console/signals', ready: ['table.signals tbody tr', '[data-stream-state="live"]'] },
    { name: 'signal', path: '', ready: ['#chart[data-ready="true"]', '[data-no-model]', 'text=Suggested', '[data-stream-state="live"]'] },
    { name: 'record', path: '/console/record', ready: ['[data-source="live"]', 'svg[aria-label^="Monthly outcomes"]', 'text=checkpoints published'] },
    { name: 'record-replay', path: '/console/record?source=replay', ready: ['[data-source="replay"]', 'svg[aria-label^="Monthly outcomes"]'] },
    { name: 'market', path: '/console/market', ready: ['text=Top', 'text=Information Technology'] },
    { name: 'sign-in', path: '/console/account', ready: ['textarea[name=token]'] },
    { name: 'account', path: '/console/account?tab=watchlists', ready: ['[data-user="alice"]', 'text=Semis'], signedIn: true },
    { name: 'account-keys', path: '/console/account?tab=keys', ready: ['[data-key-prefix]'], signedIn: true },
    { name: 'account-alerts', path: '/console/account?tab=alerts', ready: ['text=No alert rule yet'], signedIn: true },
    { name: 'account-notifications', path: '/console/account?tab=notifications', ready: ['text=unread'], signedIn: true },
    { name: 'account-journal', path: '/console/account?tab=journal', ready: ['text=No entry yet'], signedIn: true },
    { name: 'account-exports', path: '/console/account?tab=exports', ready: ['text=No export yet'], signedIn: true },
  ];

  for (const viewport of ['desktop', 'phone'] as const) {
    it(`every page at ${viewport} width: no console error, no failed request (screenshots saved)`, async () => {
      const first = (await rankedFromApi(server)).find((s) => s.stopLoss !== null)!;
      // Three pages at a time, each in a context of its own (as three tabs would be): the waits overlap.
      const queue = [...PAGES];
      const seen: { page: string; problems: string[] }[] = [];
      const visit = async () => {
        for (let view = queue.shift(); view; view = queue.shift()) {
          const context = await browser.newContext({ viewport: VIEWPORTS[viewport] });
          if (view.signedIn) await context.addCookies([{ name: '__session', value: token, url: base, sameSite: 'Strict' }]);
          const page = await context.newPage();
          const watched = watch(page);
          await page.goto(`${base}${view.path || `/console/signals/${encodeURIComponent(first.id)}`}`);
          for (const selector of view.ready) await page.locator(selector).first().waitFor();
          await screenshot(page, view.name, viewport);
          watched.stop();
          await context.close();
          seen.push({ page: view.name, problems: watched.problems });
        }
      };
      await Promise.all([visit(), visit(), visit()]);
      expect(seen.map((view) => view.page).sort()).toEqual(PAGES.map((view) => view.name).sort());
      for (const view of seen) expect(view).toEqual({ page: view.page, problems: [] });
    });
  }

  it('runs a walk-forward backtest from the form and plots its equity curve and folds', async () => {
    const { context, page } = await open('/console/account?tab=backtest', 'desktop', true);
    const watched = watch(page);
    await page.fill('form[aria-label="Backtest parameters"] input[name=symbol]', 'AAPL');
    await page.click('button:has-text("Run backtest")');
    await page.locator('[data-backtest="AAPL"], .problem').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('.problem').allTextContents()).toEqual([]);
    expect(await page.locator('svg[aria-label^="Equity curve"] path.line').count()).toBe(1);
    expect(await page.locator('table:has(caption:has-text("Folds")) tbody tr').count()).toBeGreaterThan(0);
    await screenshot(page, 'account-backtest', 'desktop');
    watched.stop();
    expect(watched.problems).toEqual([]);
    await context.close();
  });
});
