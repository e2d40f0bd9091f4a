/**
 * @module app
 * Composes the cross-cutting plugins and the feature modules into one Elysia
 * app. Tests call `createApp(services).handle(request)`; src/index.ts listens.
 */
import { Elysia } from 'elysia';
import { aiModule } from './modules/ai';
import { accountModule } from './modules/account';
import { API_VERSIONS } from './config';
import { altdataModule } from './modules/altdata';
import { fundamentalsModule } from './modules/fundamentals';
import { marketModule } from './modules/market';
import { optionsModule } from './modules/options';
import { realtimeModule } from './modules/realtime';
import { signalsModule } from './modules/signals';
import { transparencyModule } from './modules/transparency';
import { systemModule } from './modules/system';
import { docsAssets, DOCS_UI } from './plugins/docs-ui';
import { bodyLimit, SERVER_BODY_LIMIT } from './plugins/body-limit';
import { errors } from './plugins/errors';
import { apiDocs } from './plugins/openapi';
import './plugins/formats';
import { SECURITY_SCHEMES } from './plugins/auth';
import { rateLimit, rateLimitOptions } from './plugins/rate-limit';
import { requestId } from './plugins/request-id';
import { versioning } from './plugins/versioning';
import type { Services } from './services';

/** The spec's tags that have routes today, in its order (Backtest and GraphQL come with their modules), then ours. */
const TAGS = [
  ['System', 'Health and service metadata'],
  ['Market Data', 'Bars, quote snapshots, sector rotation and the macro calendar'],
  ['Signals', 'Breakout signals, confluence and universe scans'],
  ['Transparency', 'The public, hash-chained ledger of every surfaced signal and its outcome'],
  ['Fundamentals', 'Earnings and float'],
  ['AltData', 'Insider transactions, unusual options flow, short interest'],
  ['Options', 'Options strategy analysis'],
  ['AI', 'Plain-language explanations of signals by a language model, every number checked against the facts it was given'],
  ['Realtime', 'Server-Sent Events: breakouts, state changes, dispatched alerts and quotes, resumable with Last-Event-ID'],
  ['Account', 'Your API keys (needs a session)'],
] as const;

export function createApp(services: Services) {
  const { config, log } = services;
  // Bun's own limits: no body over SERVER_BODY_LIMIT reaches a route, and a
  // failure of the error renderer itself is a bare 500, never a source page.
  return new Elysia({ name: 'breakline', serve: { maxRequestBodySize: SERVER_BODY_LIMIT, development: false } })
    .use(requestId)
    .use(errors(log))
    .use(bodyLimit)
    .use(versioning(config.apiDefaultVersion))
    .use(rateLimit(rateLimitOptions(services)))
    .use(
      apiDocs({
        apiVersions: API_VERSIONS,
        ui: { provider: 'swagger-ui', swagger: DOCS_UI },
        documentation: {
          info: {
            title: 'Breakline',
            // The interface version the spec declares (1.1.0 is chosen per request with API-Version).
            version: API_VERSIONS[0],
            description:
              'Breakout signals, market, fundamental, alternative and options data, and a tamper-evident signal ledger. Send `API-Version: 1.0.0 | 1.1.0` to choose the contract (default from server config); it is echoed on every response. Under 1.1.0, `range` is required on /api/bars.',
          },
          tags: TAGS.map(([name, description]) => ({ name, description })),
          components: { securitySchemes: SECURITY_SCHEMES },
        },
      }),
    )
    .use(docsAssets)
    .use(systemModule(services))
    .use(marketModule(services))
    .use(signalsModule(services))
    .use(transparencyModule(services))
    .use(fundamentalsModule(services))
    .use(altdataModule(services))
    .use(optionsModule(services))
    .use(aiModule(services))
    .use(realtimeModule(services))
    .use(accountModule(services));
}

export type App = ReturnType<typeof createApp>;
