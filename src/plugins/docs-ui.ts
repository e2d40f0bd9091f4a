/**
 * @module plugins/docs-ui
 * The docs UI at /docs works offline: Swagger UI's script and stylesheet come
 * from the pinned `swagger-ui-dist` package, embedded in the executable by
 * `npm run build` (imported as files) and served by the server itself under a
 * path that names the version (so they are cached for good), never from a CDN.
 * `DOCS_UI` is the page's configuration for @elysiajs/openapi.
 *
 * @example
 * openapi({ provider: 'swagger-ui', swagger: DOCS_UI, ... }); app.use(docsAssets);
 */
import { Elysia } from 'elysia';
import { version } from 'swagger-ui-dist/package.json' with { type: 'json' };
import bundlePath from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' };
import stylesheetPath from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' };

/** Where the assets are served: versioned, so a new version is a new URL. */
export const DOCS_ASSETS = `/docs/assets/swagger-ui-${version}`;

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The docs page's configuration: local assets, no validator badge (it would call validator.swagger.io). */
export const DOCS_UI = {
  version,
  cdn: `${DOCS_ASSETS}/swagger-ui-bundle.js`,
  theme: `${DOCS_ASSETS}/swagger-ui.css`,
  validatorUrl: 'none',
};

function asset(path: string, type: string) {
  const file = Bun.file(path);
  return () => new Response(file, { headers: { 'content-type': type, 'cache-control': IMMUTABLE } });
}

export const docsAssets = new Elysia({ name: 'breakline/docs-ui' })
  .get(`${DOCS_ASSETS}/swagger-ui-bundle.js`, asset(bundlePath, 'text/javascript; charset=utf-8'), { detail: { hide: true } })
  .get(`${DOCS_ASSETS}/swagger-ui.css`, asset(stylesheetPath, 'text/css; charset=utf-8'), { detail: { hide: true } });
