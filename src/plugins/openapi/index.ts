/**
 * @module plugins/openapi
 * The OpenAPI document at `/openapi/json` and the docs UI at `/docs`:
 * @elysiajs/openapi generates the document from every route's TypeBox
 * schemas and `detail`, and `publishDocument` (./publish) turns it into the
 * one we publish, once per set of routes (the generator caches its document
 * until routes change; so does this plugin, per app).
 */
import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import { ErrorSchema } from '../errors';
import { publishDocument, type OpenApiDocument } from './publish';

export const OPENAPI_PATH = '/openapi/json';

type OpenApiOptions = NonNullable<Parameters<typeof openapi>[0]>;

export interface ApiDocsOptions {
  /** What the generator starts from: info, tags. */
  documentation: NonNullable<OpenApiOptions['documentation']>;
  apiVersions: readonly string[];
  /** The docs UI at /docs (@elysiajs/openapi's provider and its options); Scalar by default. */
  ui?: Pick<OpenApiOptions, 'provider' | 'swagger' | 'scalar'>;
}

export function apiDocs({ documentation, apiVersions, ui = {} }: ApiDocsOptions) {
  let cache: { generated: unknown; body: string } | undefined;
  return new Elysia({ name: 'breakline/openapi' })
    .mapResponse(({ path, responseValue }) => {
      if (path !== OPENAPI_PATH || typeof responseValue !== 'object' || responseValue === null || !('openapi' in responseValue && 'paths' in responseValue)) return;
      if (cache?.generated !== responseValue) {
        // The generator's own document object (typed by openapi-types): read here as the JSON it is.
        const generated = responseValue as OpenApiDocument;
        cache = { generated: responseValue, body: JSON.stringify(publishDocument(generated, { apiVersions, errorSchema: ErrorSchema })) };
      }
      return new Response(cache.body, { headers: { 'content-type': 'application/json; charset=utf-8' } });
    })
    .use(
      openapi({
        ...ui,
        path: '/docs',
        specPath: OPENAPI_PATH,
        // The ledger's CSV has a dot in its path; it is an operation, not a static file.
        exclude: { staticFile: false },
        documentation,
      }),
    );
}
