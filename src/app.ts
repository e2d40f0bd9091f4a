/**
 * @module app
 * Composes the cross-cutting plugins and the feature modules into one Elysia
 * app. Tests call `createApp(services).handle(request)`; src/index.ts listens.
 */
import { Elysia } from 'elysia';
import { KindGuard } from '@sinclair/typebox';
import { aiModule } from './modules/ai';
import { accountModule } from './modules/account';
import { watchlistsModule } from './modules/watchlists';
import { alertsModule } from './modules/alerts';
import { notificationsModule } from './modules/notifications';
import { journalModule } from './modules/journal';
import { exportsModule } from './modules/exports';
import { communityModule } from './modules/community';
import { API_VERSIONS } from './config';
import { altdataModule } from './modules/altdata';
import { backtestModule } from './modules/backtest';
import { fundamentalsModule } from './modules/fundamentals';
import { graphqlModule, type RouteTable } from './modules/graphql';
import { marketFastRoutes, marketModule } from './modules/market';
import { optionsModule } from './modules/options';
import { realtimeModule } from './modules/realtime';
import { signalsFastRoutes, signalsModule } from './modules/signals';
import { transparencyModule } from './modules/transparency';
import { systemFastRoutes, systemModule } from './modules/system';
import { bunRouteHandler } from './plugins/elysia-internals';
import { docsUi } from './plugins/docs-ui';
import { consoleUi } from './plugins/console';
import { loadConsoleFiles } from './console/files';
import { serverLimits } from './plugins/body-limit';
import { errors } from './plugins/errors';
import { apiDocs, OPENAPI_PATH } from './plugins/openapi';
import { WEBHOOKS } from './modules/alerts/webhook';
import './plugins/formats';
import { SECURITY_SCHEMES } from './plugins/auth';
import { rateLimitOptions } from './plugins/rate-limit';
import { fastPath, type FastPathOptions } from './plugins/fast-path';
import { observe } from './plugins/observe';
import { requestStages, useStages, type Stage } from './plugins/pipeline';
import { representation } from './plugins/representation';
import type { Services } from './services';

/** The spec's tags that have routes today, in its order (GraphQL comes with its module), then ours. */
const TAGS = [
  ['System', 'Health and service metadata'],
  ['Market Data', 'Bars, quote snapshots, sector rotation and the macro calendar'],
  ['Signals', 'Breakout signals, confluence and universe scans'],
  ['Transparency', 'The public, hash-chained ledger of every surfaced signal and its outcome'],
  ['Fundamentals', 'Earnings and float'],
  ['AltData', 'Insider transactions, unusual options flow, short interest'],
  ['Options', 'Options strategy analysis'],
  ['AI', 'Plain-language explanations of signals by a language model, every number checked against the facts it was given'],
  ['Backtest', 'Purged walk-forward backtests of the live detectors, one symbol at once or a universe as a job (a session, or an API key with the backtest scope)'],
  ['Realtime', 'Server-Sent Events: breakouts, state changes, dispatched alerts, your backtest jobs\' progress and quotes, resumable with Last-Event-ID'],
  ['GraphQL', 'One GraphQL schema over every service: cursor connections, batching, tier-gated mutations, cost limits, subscriptions over SSE'],
  ['Account', 'Your API keys and their scopes (a session, or a key with admin:keys)'],
  ['Watchlists', 'Your watchlists, each symbol with its newest signal'],
  ['Alerts', 'Your alert rules, fired by every persisted scan: in-app notifications and signed webhooks'],
  ['Notifications', 'Your in-app notifications, and breakout events on your watchlists'],
  ['Journal', 'Your trade journal: P&L, R from the linked signal’s stop, holding time, and a summary like the scorecard'],
  ['Exports', 'CSV or JSON files of a ledger slice or your journal, made in the background (pro tier)'],
  ['Community', 'The public feed of posts; posting needs a session'],
] as const;

/** The steps every request takes before routing, with their plugins, in their one order (plugins/pipeline). */
export function appStages(services: Services): readonly Stage[] {
  const { config } = services;
  return requestStages({
    defaultVersion: config.apiDefaultVersion,
    security: { corsOrigins: config.corsOrigins, credentialOrigins: config.auth.allowedOrigins },
    rateLimit: rateLimitOptions(services),
  });
}

/**
 * The fast path's handlers by path (plugins/fast-path), in Bun's `routes`
 * shape, running the app's steps (`stages`, by default made anew from the
 * services); `ordinaryOf(path)` answers what they leave (the app's own handler of the route).
 */
export function fastRoutes(
  services: Services,
  ordinaryOf: (path: string) => (request: Request) => Response | Promise<Response>,
  queryOf: FastPathOptions['queryOf'],
  stages: readonly Stage[] = appStages(services),
) {
  return fastPath(
    [...marketFastRoutes(services), ...signalsFastRoutes(services), ...systemFastRoutes(services)],
    {
      log: services.log,
      metrics: services.metrics,
      defaultVersion: services.config.apiDefaultVersion,
      steps: stages.map((stage) => stage.step),
      compressed: services.compressedBodies,
      queryOf,
    },
    ordinaryOf,
  );
}

/** A GET route's query schema from the app's route table: the one its declaration validates with (the fast path's too). */
export function routeQuery(app: () => { routes: readonly { method: string; path: string; hooks?: { query?: unknown } }[] }): FastPathOptions['queryOf'] {
  return (path) => {
    const query = app().routes.find((route) => route.method === 'GET' && route.path === path)?.hooks?.query;
    return KindGuard.IsSchema(query) ? query : undefined;
  };
}

/**
 * Seconds a connection may stay silent before Bun closes it — a request whose
 * answer is still being made included (Bun's idle timer runs until the first
 * byte is written; Elysia's default is 30). The same as the reference
 * HAProxy's `timeout server` (deploy/haproxy.cfg): a cold read of a whole
 * boot replay's ledger can take longer than 30 s on a small machine, and was
 * cut off with an empty reply.
 */
export const SERVER_IDLE_SECONDS = 60;

export function createApp(services: Services) {
  const { config, log } = services;
  // Bun's own limits lifted above the app's (plugins/body-limit: the app refuses in the Error shape), and a
  // failure of the error renderer itself is a bare 500, never a source page.
  // The route table, read once the app is composed: its static paths (the access log and metrics label refusals before
  // routing with them), and the rate-limit class each route publishes (GraphQL's fields take their REST route's).
  let routes: RouteTable = () => [];
  let staticRoutes: Set<string> | undefined;
  const isRoute = (path: string): boolean => (staticRoutes ??= new Set(routes().map((route) => route.path))).has(path);
  // The hot cached GETs are Bun's routes, answered by the fast path before Elysia (plugins/fast-path);
  // what it leaves goes to the app. Only `listen` uses them: `app.handle` (the tests) is the ordinary path.
  // What the fast path leaves goes to the handler Elysia itself gives Bun for the route (not app.fetch,
  // whose path parser assumes a host of 4+ characters: `Host: a` would be a 404 there).
  const ordinary = new Map<string, (request: Request) => Response | Promise<Response>>();
  const ordinaryOf = (path: string) => {
    let handler = ordinary.get(path);
    if (!handler) {
      handler = bunRouteHandler(app, path) ?? app.fetch;
      ordinary.set(path, handler);
    }
    return handler;
  };
  // One list of steps before routing for both ways in: Elysia's hooks (the stages' plugins) and the fast path's.
  const stages = appStages(services);
  const hot = fastRoutes(services, ordinaryOf, routeQuery(() => app), stages);
  const app = useStages(
    new Elysia({ name: 'breakline', serve: { ...serverLimits(), development: false, idleTimeout: SERVER_IDLE_SECONDS, routes: hot } })
      .use(observe({ log, metrics: services.metrics, isRoute }))
      .use(errors(log, () => void services.health.refresh())),
    stages,
  )
    .use(
      apiDocs({
        apiVersions: API_VERSIONS,
        ui: { provider: null }, // the page is plugins/docs-ui's (offline, with its CSP)
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
          // OpenAPI 3.1 `webhooks`: what Breakline POSTs to a rule's webhook (modules/alerts/webhook).
          webhooks: WEBHOOKS,
        },
      }),
    )
    // After apiDocs: its own hook publishes the OpenAPI document before this one sees any answer.
    .use(representation(services.compressedBodies))
    .use(docsUi({ title: 'Breakline', specUrl: OPENAPI_PATH }))
    .use(consoleUi({ load: loadConsoleFiles, log }))
    .use(systemModule(services))
    .use(marketModule(services))
    .use(signalsModule(services))
    .use(transparencyModule(services))
    .use(fundamentalsModule(services))
    .use(altdataModule(services))
    .use(optionsModule(services))
    .use(aiModule(services))
    .use(backtestModule(services))
    .use(realtimeModule(services))
    .use(graphqlModule(services, () => routes()))
    .use(accountModule(services))
    .use(watchlistsModule(services))
    .use(alertsModule(services))
    .use(notificationsModule(services))
    .use(journalModule(services))
    .use(exportsModule(services))
    .use(communityModule(services));
  routes = () => app.routes;
  return app;
}

export type App = ReturnType<typeof createApp>;
