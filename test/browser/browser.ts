/**
 * The web console in a real browser: Debian's Chromium (`/usr/bin/chromium`,
 * never a browser download) driven by `playwright-core`, a page watcher that
 * records console errors, page errors, failed requests and HTTP errors, and
 * screenshots at desktop (1280×800) and phone (390 px) width: into a
 * temporary directory (named in the run's output) by default, so a test run
 * leaves the tracked files alone, and over the tracked docs/screenshots/ only
 * when asked with UPDATE_SCREENSHOTS=1 (docs/console.md). `CHROMIUM_MISSING` names what is missing when the machine has no
 * Chromium, so the suite skips with that message instead of failing.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export const CHROMIUM_MISSING = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing (Debian: apt-get install chromium); the console's browser tests are skipped`;

/** The tracked screenshots the docs show. */
export const TRACKED_SCREENSHOTS = join(import.meta.dir, '..', '..', 'docs', 'screenshots');

/** Where this run saves its screenshots: the tracked ones only on request, a directory of the run's own otherwise. */
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? TRACKED_SCREENSHOTS : join(tmpdir(), `breakline-console-screenshots-${process.pid}`);

export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

export function launch(): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}

export interface Watched {
  /** Console errors and warnings, page errors, failed requests and HTTP statuses ≥ 400, as lines. */
  problems: string[];
  /** Stops recording (before the page is closed or navigated away on purpose). */
  stop(): void;
}

/** Records everything on `page` that a person would count as broken. */
export function watch(page: Page): Watched {
  const problems: string[] = [];
  let on = true;
  const add = (line: string) => on && problems.push(line);
  page.on('console', (message) => (message.type() === 'error' || message.type() === 'warning') && add(`console ${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => add(`page error: ${error.message}`));
  page.on('requestfailed', (request) => add(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => response.status() >= 400 && add(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`));
  return { problems, stop: () => (on = false) };
}

/** Saves the page as <SCREENSHOTS>/<name>-<viewport>.png. */
export async function screenshot(page: Page, name: string, viewport: keyof typeof VIEWPORTS): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-${viewport}.png`) });
}
