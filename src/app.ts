/**
 * @module app
 * Composes the cross-cutting plugins and the feature modules into one Elysia
 * app. Tests call `createApp(services).handle(request)`; src/index.ts listens.
 */
import { openapi } from '@elysiajs/openapi';
import { Elysia } from 'elysia';
import pkg from '../package.json' with { type: 'json' };
import { aiModule } from './modules/ai';
import { accountModule } from './modules/account';
import { altdataModule } from './modules/altdata';
import { backtestModule } from './modules/backtest';
import { fundamentalsModule } from './modules/fundamentals';
import { marketModule } from './modules/market';
import { optionsModule } from './modules/options';
import { signalsModule } from './modules/signals';
import { transparencyModule } from './modules/transparency';
import { systemModule } from './modules/system';
import { docsAssets, DOCS_UI } from './plugins/docs-ui';
import { errors } from './plugins/errors';
import './plugins/formats';
import { SECURITY_SCHEMES } from './plugins/auth';
import { rateLimit } from './plugins/rate-limit';
import { requestId } from './plugins/request-id';
import { versioning } from './plugins/versioning';
import type { Services } from './services';

/** The spec's tags that have routes today, in its order (Realtime and GraphQL come with their modules), then ours. */
const TAGS = [
  ['System', 'Health and service metadata'],
  ['Market Data', 'Bars, quote snapshots, sector rotation and the macro calendar'],
  ['Signals', 'Breakout signals, confluence and universe scans'],
  ['Transparency', 'The public, hash-chained ledger of every surfaced signal and its outcome'],
  ['Fundamentals', 'Earnings and float'],
  ['AltData', 'Insider transactions, unusual options flow, short interest'],
  ['Options', 'Options strategy analysis'],
  ['AI', 'Plain-language explanations of signals by a language model, every number checked against the facts it was given'],
  ['Backtest', 'Purged walk-forward backtests of the live detectors, one symbol at once or a universe as a job (needs a session)'],
  ['Account', 'Your API keys (needs a session)'],
] as const;

export function createApp(services: Services) {
  const { config, log } = services;
  return new Elysia({ name: 'breakline' })
    .use(requestId)
    .use(errors(log))
    .use(versioning(config.apiDefaultVersion))
    .use(
      rateLimit({
        store: services.rateLimitStore,
        quota: config.rateLimit.quota,
        windowSeconds: config.rateLimit.windowSeconds,
        tierQuotas: config.rateLimit.tierQuotas,
        trustProxy: config.trustProxy,
        log,
        principalOf: (request) => services.auth.authenticator.principalOf(request),
        exempt: ['/api/health'],
      }),
    )
    .use(
      openapi({
        path: '/docs',
        provider: 'swagger-ui',
        swagger: DOCS_UI,
        specPath: '/openapi/json',
        documentation: {
          openapi: '3.1.0',
          info: {
            title: 'Breakline',
            version: pkg.version,
            description:
              'Breakout signals, market, fundamental, alternative and options data, and a tamper-evident signal ledger. Send `API-Version: 1.0.0 | 1.1.0` to choose the contract (default from server config); it is echoed on every response.',
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
    .use(backtestModule(services))
    .use(accountModule(services));
}

export type App = ReturnType<typeof createApp>;
