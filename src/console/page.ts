/**
 * @module console/page
 * The console's HTML: the page that loads the bundled console, its
 * Content-Security-Policy, and the page a browser gets while the server warms
 * up. It imports nothing but the console's path table (console/app/routes, no
 * imports of its own), so the warm-up listener (cli/warming-listener) loads it
 * without the app.
 *
 * The page names everything its view will load before the entry script runs,
 * so the browser fetches it all at once rather than one request after the
 * other (each a round trip: the waterfall Lighthouse's first and largest
 * contentful paint are made of, issue 33): `modulepreload` for the entry's
 * static imports and the view's own modules (console/bundle's LAZY_MODULES,
 * with theirs), and on the signals page a `preload` of its first API request
 * (console/app/routes: the same URL the page asks, so the browser uses it).
 *
 * @example
 * consolePage(files, '/console/record', ''); // => '<!DOCTYPE html>…<link rel="modulepreload" href="/console/assets/record-1a2b.js" />…'
 */
import type { ConsoleFile } from './files';
import { parse, signalsFirstPage, signalsTimeframe, type Page } from './app/routes';

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

/** The modules each view loads beside the entry (console/bundle's LAZY_MODULES): the signal page draws a chart. */
const VIEW_MODULES: Record<Page, string[]> = { signals: [], signal: ['signal', 'chart'], record: ['record'], market: ['market'], account: ['account'], missing: [] };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `names` and every file they import statically, transitively (each once). */
function closure(files: readonly ConsoleFile[], names: string[]): string[] {
  const byName = new Map(files.map((file) => [file.name, file]));
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const imported of byName.get(name)?.imports ?? []) visit(imported);
  };
  names.forEach(visit);
  return [...seen];
}

/** The HTML page of the view at `pathname` + `search` that loads `files` (the entry script and stylesheet, with what the view needs preloaded); the body says something before the script runs. */
export function consolePage(files: readonly ConsoleFile[], pathname = CONSOLE_PATH, search = ''): string {
  const route = parse({ pathname, search });
  const entries = files.filter((file) => file.entry);
  const entryScripts = entries.filter((file) => file.name.endsWith('.js')).map((file) => file.name);
  const viewModules = VIEW_MODULES[route.page].flatMap((module) => files.filter((file) => file.module === module).map((file) => file.name));
  const preloads = closure(files, [...entryScripts, ...viewModules]).filter((name) => !entryScripts.includes(name));
  const links = [
    ...entries.filter((file) => file.name.endsWith('.css')).map((file) => `  <link rel="stylesheet" href="${ASSETS}${file.name}" />`),
    ...(route.page === 'signals' ? [`  <link rel="preload" as="fetch" crossorigin="anonymous" href="${escapeHtml(signalsFirstPage(signalsTimeframe(route.search)))}" />`] : []),
    ...entryScripts.map((name) => `  <script type="module" src="${ASSETS}${name}"></script>`),
    ...preloads.map((name) => `  <link rel="modulepreload" href="${ASSETS}${name}" />`),
  ];
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <meta name="description" content="Breakline console: ranked breakout signals, live, on charts, with their track record" />
  <meta name="color-scheme" content="light dark" />
  <title>Breakline console</title>
  <link rel="icon" href="${ASSETS}icon.svg" type="image/svg+xml" />
${links.join('\n')}
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
  const text = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="1"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Breakline is starting</title></head><body><main><h1>Breakline is starting up</h1><p>Warm-up step: ${escapeHtml(step)}. This page reloads by itself.</p></main></body></html>`;
  return new Response(text, { status: 503, headers: { ...PAGE_HEADERS, 'retry-after': '1' } });
}

/** Whether a request is a browser asking for a page (it prefers HTML to what an API client asks for). */
export function wantsPage(request: Request): boolean {
  return request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html');
}

