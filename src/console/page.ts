/**
 * @module console/page
 * The console's HTML: the page that loads the bundled console, its
 * Content-Security-Policy, and the page a browser gets while the server warms
 * up. No imports, so the warm-up listener (cli/warming-listener) loads it
 * without the app.
 *
 * @example
 * consolePage([{ name: 'main-1a2b.js', type: 'text/javascript', entry: true, text: '' }]); // => '<!DOCTYPE html>…'
 */
import type { ConsoleFile } from './files';

export const CONSOLE_PATH = '/console';
export const ASSETS = `${CONSOLE_PATH}/assets/`;

/** The console page's Content-Security-Policy: this origin only, nothing inline, never framed. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CONSOLE_CSP,
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-cache',
};

/** The HTML page that loads `files` (their entry script and stylesheet); the body says something before the script runs. */
export function consolePage(files: readonly ConsoleFile[]): string {
  const entries = files.filter((file) => file.entry);
  const styles = entries.filter((file) => file.name.endsWith('.css')).map((file) => `  <link rel="stylesheet" href="${ASSETS}${file.name}" />`);
  const scripts = entries.filter((file) => file.name.endsWith('.js')).map((file) => `  <script type="module" src="${ASSETS}${file.name}"></script>`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <meta name="description" content="Breakline console: ranked breakout signals, live, on charts, with their track record" />
  <meta name="color-scheme" content="light dark" />
  <title>Breakline console</title>
  <link rel="icon" href="${ASSETS}icon.svg" type="image/svg+xml" />
${styles.join('\n')}
${scripts.join('\n')}
</head>
<body>
  <div id="app"><main class="boot"><h1>Breakline</h1><p>Loading the console…</p></main></div>
  <noscript><p>The console needs JavaScript. The API works without it: see <a href="/docs">/docs</a>.</p></noscript>
</body>
</html>
`;
}

/** A page for a browser that asks for the console while the server warms up: it says so and reloads itself each second (no script). */
export function warmingPage(step: string): Response {
  const text = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="1"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Breakline is starting</title></head><body><main><h1>Breakline is starting up</h1><p>Warm-up step: ${step.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}. This page reloads by itself.</p></main></body></html>`;
  return new Response(text, { status: 503, headers: { ...PAGE_HEADERS, 'retry-after': '1' } });
}

/** Whether a request is a browser asking for a page (it prefers HTML to what an API client asks for). */
export function wantsPage(request: Request): boolean {
  return request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html');
}

