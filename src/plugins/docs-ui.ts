/**
 * @module plugins/docs-ui
 * The docs UI at /docs works offline: Swagger UI's script and stylesheet come
 * from the pinned `swagger-ui-dist` package, embedded in the executable by
 * `npm run build` (imported as files) and served by the server itself under a
 * path that names the version (so they are cached for good), never from a CDN.
 * The page itself is ours too (the generator's page starts Swagger UI from an
 * inline script): it loads the stylesheet, the bundle and `init.js`, which
 * starts Swagger UI on the published document, so its Content-Security-Policy
 * allows this server's own scripts and nothing inline, and `frame-ancestors
 * 'none'` (with `X-Frame-Options: DENY`) keeps it out of other sites' frames.
 *
 * @example
 * app.use(apiDocs({ ui: { provider: null }, ... })).use(docsUi({ title: 'Breakline', specUrl: '/openapi/json' }));
 */
import { Elysia } from 'elysia';
import { version } from 'swagger-ui-dist/package.json' with { type: 'json' };
import bundlePath from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
import stylesheetPath from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' };

/** Where the assets are served: versioned, so a new version is a new URL. */
export const DOCS_ASSETS = `/docs/assets/swagger-ui-${version}`;

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The docs page's Content-Security-Policy: this server's scripts, styles (Swagger UI also sets styles inline) and requests only; never framed. */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function asset(path: string, type: string) {
  const file = Bun.file(path);
  return () => new Response(file, { headers: { 'content-type': type, 'cache-control': IMMUTABLE } });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The docs UI at /docs: the page, its start script, and Swagger UI's pinned assets. */
export function docsUi({ title, specUrl }: { title: string; specUrl: string }) {
  const page = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${escapeHtml(title)}</title>
  <link rel="stylesheet" href="${DOCS_ASSETS}/swagger-ui.css" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_ASSETS}/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;
  const init = `window.ui = SwaggerUIBundle(${JSON.stringify({ dom_id: '#swagger-ui', url: specUrl, validatorUrl: 'none' })});\n`;
  const pageHeaders = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_CSP, 'x-frame-options': 'DENY', 'cache-control': 'no-cache' };
  return new Elysia({ name: 'breakline/docs-ui' })
    .get('/docs', () => new Response(page, { headers: pageHeaders }), { detail: { hide: true } })
    .get('/docs/init.js', () => new Response(init, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' } }), { detail: { hide: true } })
    .get(`${DOCS_ASSETS}/swagger-ui-bundle.js`, asset(bundlePath, 'text/javascript; charset=utf-8'), { detail: { hide: true } })
    .get(`${DOCS_ASSETS}/swagger-ui.css`, asset(stylesheetPath, 'text/css; charset=utf-8'), { detail: { hide: true } });
}
