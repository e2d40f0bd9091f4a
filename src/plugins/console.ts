/**
 * @module plugins/console
 * The web console at /console: a page that loads the bundled console
 * (src/console/app) from /console/assets/, served by this process from files
 * bundled on first use from source or embedded at build time (console/files).
 * Every path under /console that is not an asset answers the same page (the
 * console routes in the browser, so a reload or a shared link lands on the
 * view it names). `GET /` redirects a browser (one that asks for HTML) to the
 * console; an API client asking `/` gets the 404 it always got.
 *
 * The page's Content-Security-Policy allows this origin's scripts, styles,
 * images and connections only, and nothing inline (the page has no inline
 * script or style; the console sets styles through the CSSOM, which the
 * policy does not govern); it is never framed. Assets are content-hashed and
 * cached for good, compressed once (brotli, gzip) when first loaded.
 *
 * @example
 * app.use(consoleUi({ log, load: loadConsoleFiles }));
 */
import { Elysia } from 'elysia';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { ConsoleFile } from '../console/files';
import type { Logger } from '../log';
import { ASSETS, CONSOLE_PATH, consolePage, PAGE_HEADERS, wantsPage } from '../console/page';
import { requestPath } from './request-path';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** An asset as served: its bytes as they are and compressed. */
interface Asset {
  type: string;
  plain: Blob;
  br: Blob;
  gzip: Blob;
}

interface Loaded {
  files: readonly ConsoleFile[];
  assets: Map<string, Asset>;
}

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/** Brotli at quality 9: within about 3% of the maximum's size at a tenth of its time (once per asset). */
const BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } };

async function prepare(files: readonly ConsoleFile[]): Promise<Loaded> {
  const assets = new Map<string, Asset>();
  await Promise.all(
    files.map(async (file) => {
      const bytes = new TextEncoder().encode(file.text);
      const [br, gz] = await Promise.all([compressBrotli(bytes, BROTLI), compressGzip(bytes, { level: 9 })]);
      assets.set(file.name, { type: file.type, plain: new Blob([bytes]), br: new Blob([br]), gzip: new Blob([gz]) });
    }),
  );
  return { files, assets };
}

function serveAsset(asset: Asset, request: Request): Response {
  const accepted = request.headers.get('accept-encoding') ?? '';
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  const headers: Record<string, string> = { 'content-type': asset.type, 'cache-control': IMMUTABLE, vary: 'Accept-Encoding' };
  if (encoding) headers['content-encoding'] = encoding;
  return new Response(encoding ? asset[encoding] : asset.plain, { headers });
}

/** The console's routes; `load` gives its files (called once, again after a failure). */
export function consoleUi({ load, log }: { load: () => Promise<ConsoleFile[]>; log: Logger }) {
  let loading: Promise<Loaded> | undefined;
  const loaded = () => {
    if (!loading) {
      const started = performance.now();
      loading = load()
        .then(prepare)
        .then((ready) => {
          log.info('console: files ready', { files: ready.assets.size, ms: Math.round(performance.now() - started) });
          return ready;
        });
      loading.catch((error) => {
        log.error('console: its files could not be made', { error: String(error) });
        loading = undefined;
      });
    }
    return loading;
  };
  const hidden = { detail: { hide: true } };
  const answer = async (request: Request) => {
    const { files, assets } = await loaded();
    const path = requestPath(request.url);
    // Each view's page names what that view will load (console/page), so it is made per request: a few string joins.
    if (!path.startsWith(ASSETS)) {
      const query = request.url.indexOf('?');
      return new Response(consolePage(files, path, query < 0 ? '' : request.url.slice(query)), { headers: PAGE_HEADERS });
    }
    const asset = assets.get(path.slice(ASSETS.length));
    // An asset name the console never had (an old page after an upgrade): a plain 404 the page's error handler reports.
    return asset ? serveAsset(asset, request) : new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  };
  return new Elysia({ name: 'breakline/console' })
    .onRequest(({ request }) => {
      if (wantsPage(request) && requestPath(request.url) === '/') return new Response(null, { status: 302, headers: { location: CONSOLE_PATH } });
    })
    .get(CONSOLE_PATH, ({ request }) => answer(request), hidden)
    .get(`${CONSOLE_PATH}/*`, ({ request }) => answer(request), hidden);
}
