/**
 * @module cli/capacity/profile
 * The load a capacity run ramps: a weighted mix of documented GET routes and
 * GraphQL queries at a top rate, SSE clients with their channels and symbols,
 * the events published to them (a local instance only) and the credential
 * authenticated routes need. From `--profile FILE` (JSON, `ProfileFile`),
 * flags, or the default: what a dashboard of breakouts does.
 *
 * A route's path may hold `{symbol}`: each connection cycles through
 * `symbols` in it (a cache that only ever sees AAPL would flatter the
 * server). Routes are checked against the target's OpenAPI document before any
 * load: GET routes it documents, and POST only to /api/graphql.
 *
 * @example
 * // profile.json
 * { "rps": 2000, "routes": [{ "path": "/api/snapshot?symbol={symbol}", "weight": 3 }, { "path": "/api/breakouts" }],
 *   "graphql": [{ "query": "{ signals(first: 20) { edges { node { id } } } }" }],
 *   "sse": { "clients": 5000, "channels": ["breakouts.new"], "symbols": ["AAPL", "MSFT"] } }
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { CapacityOptions, Parsed } from './options';

/** The SSE channels a client may name (spec §6; `backtest.progress` reaches only its owner). */
export const STREAM_CHANNELS = ['breakouts.new', 'breakouts.state_change', 'alerts.dispatched'] as const;

const route = z.object({ path: z.string().startsWith('/'), weight: z.number().positive().default(1), auth: z.boolean().default(false) }).strict();
const graphql = z.object({ query: z.string().min(1), variables: z.record(z.string(), z.unknown()).optional(), weight: z.number().positive().default(1), auth: z.boolean().default(false) }).strict();

/** A `--profile` file. */
export const ProfileFile = z
  .object({
    /** Requests a second at the top of the ramp, over the whole mix. */
    rps: z.number().nonnegative().optional(),
    routes: z.array(route).optional(),
    graphql: z.array(graphql).optional(),
    /** Symbols `{symbol}` in a route's path cycles through. */
    symbols: z.array(z.string().regex(/^[A-Z0-9.\-]{1,10}$/)).min(1).optional(),
    sse: z
      .object({
        clients: z.number().int().nonnegative(),
        channels: z.array(z.enum(STREAM_CHANNELS)).default(['breakouts.new', 'breakouts.state_change']),
        /** Quote symbols each client subscribes (SSE `symbols`). */
        symbols: z.array(z.string().regex(/^[A-Z0-9.\-]{1,10}$/)).default([]),
        auth: z.boolean().default(false),
      })
      .strict()
      .optional(),
    /** Events a second the local instance publishes on `breakouts.state_change` (timed: their publish time travels in the payload). */
    eventRate: z.number().nonnegative().optional(),
    /** SSE_QUOTE_INTERVAL_MS of the local instance. */
    quoteIntervalMs: z.number().int().min(50).optional(),
  })
  .strict();

export interface RequestSpec {
  /** The label in the tables: the path without its query, `graphql:<n>` for a query. */
  label: string;
  method: 'GET' | 'POST';
  /** Paths to cycle through (one per symbol when the path holds `{symbol}`). */
  paths: string[];
  body?: string;
  weight: number;
  auth: boolean;
}

export interface Profile {
  rps: number;
  requests: RequestSpec[];
  sse: { clients: number; channels: string[]; symbols: string[]; auth: boolean };
  eventRate: number;
  quoteIntervalMs: number;
  /** The request headers of a credential (Authorization or Cookie), when one was given. */
  credential?: Record<string, string>;
}

const DEFAULT_SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'GOOGL', 'JPM', 'XOM', 'KO', 'CAT'];

/** A dashboard of breakouts: the ranked list, quotes and charts of a few names, the record, health, one GraphQL query. */
const DEFAULT_MIX = {
  routes: [
    { path: '/api/breakouts', weight: 4, auth: false },
    { path: '/api/snapshot?symbol={symbol}', weight: 3, auth: false },
    { path: '/api/bars?symbol={symbol}&range=6mo', weight: 2, auth: false },
    { path: '/api/scorecard', weight: 1, auth: false },
    { path: '/api/health', weight: 1, auth: false },
  ],
  graphql: [{ query: '{ signals(first: 20) { edges { node { id symbol finalScore breakoutState } } } }', weight: 1, auth: false }],
};

/** A `W:` prefix (a weight) off a flag's value. */
function weighted(text: string): { weight: number; rest: string } {
  const match = /^(\d+(?:\.\d+)?):(.*)$/s.exec(text);
  return match && !match[2]!.startsWith('//') ? { weight: Number(match[1]), rest: match[2]! } : { weight: 1, rest: text };
}

/** The profile of a run: the file's, with the flags over it, or the default mix. */
export function buildProfile(options: CapacityOptions, readFile: (path: string) => string = (path) => readFileSync(path, 'utf8')): Parsed<Profile> {
  let file: z.infer<typeof ProfileFile> = {};
  if (options.profileFile) {
    let json: unknown;
    try {
      json = JSON.parse(readFile(options.profileFile));
    } catch (error) {
      return { ok: false, error: `--profile ${options.profileFile}: ${(error as Error).message}` };
    }
    const parsed = ProfileFile.safeParse(json);
    if (!parsed.success) return { ok: false, error: `--profile ${options.profileFile}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')}` };
    file = parsed.data;
  }
  const routes = options.routes.length ? options.routes.map((r) => ({ path: weighted(r).rest, weight: weighted(r).weight, auth: false })) : file.routes;
  const queries = options.graphql.length ? options.graphql.map((q) => ({ query: weighted(q).rest, weight: weighted(q).weight, auth: false })) : file.graphql;
  const custom = routes !== undefined || queries !== undefined;
  const mix: { routes: { path: string; weight: number; auth: boolean }[]; graphql: { query: string; variables?: Record<string, unknown>; weight: number; auth: boolean }[] } = custom ? { routes: routes ?? [], graphql: queries ?? [] } : DEFAULT_MIX;
  const symbols = file.symbols ?? DEFAULT_SYMBOLS;
  const credential: Record<string, string> | undefined = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : options.session ? { cookie: `__session=${options.session}` } : undefined;
  // From flags, a credential goes with every request and stream (a signed-in client); a file says which need it.
  const signedIn = credential !== undefined && !options.profileFile;
  const requests: RequestSpec[] = [
    ...mix.routes
      .filter((r) => !r.path.startsWith('/api/stream'))
      .map((r): RequestSpec => {
        const paths = r.path.includes('{symbol}') ? symbols.map((s) => r.path.replaceAll('{symbol}', s)) : [r.path];
        return { label: r.path.split('?')[0]!, method: 'GET', paths, weight: r.weight, auth: r.auth || signedIn };
      }),
    ...mix.graphql.map((q, i): RequestSpec => ({ label: `graphql:${i + 1}`, method: 'POST', paths: ['/api/graphql'], body: JSON.stringify({ query: q.query, variables: q.variables }), weight: q.weight, auth: q.auth || signedIn })),
  ];
  const streamRoute = mix.routes.find((r) => r.path.startsWith('/api/stream'));
  if (streamRoute) return { ok: false, error: '/api/stream is not a request route: give SSE clients with --sse (and --channels, --symbols) or the profile\'s "sse"' };
  const sse = {
    clients: options.sse ?? file.sse?.clients ?? (custom ? 0 : 500),
    channels: options.channels ?? file.sse?.channels ?? ['breakouts.new', 'breakouts.state_change'],
    symbols: options.symbols ?? file.sse?.symbols ?? (custom ? [] : ['AAPL', 'MSFT']),
    auth: (file.sse?.auth ?? false) || signedIn,
  };
  const unknown = sse.channels.filter((c) => !(STREAM_CHANNELS as readonly string[]).includes(c));
  if (unknown.length) return { ok: false, error: `--channels: not a stream channel: ${unknown.join(', ')} (channels: ${STREAM_CHANNELS.join(', ')})` };
  const rps = options.rps ?? file.rps ?? (requests.length ? 400 : 0);
  if (requests.length === 0 && sse.clients === 0) return { ok: false, error: 'the profile has no load: give routes or queries with a rate (--route, --graphql, --rps) or SSE clients (--sse)' };
  if (requests.length > 0 && rps === 0) return { ok: false, error: 'the profile has routes but no rate: give --rps' };
  if ((requests.some((r) => r.auth) || sse.auth) && !credential) return { ok: false, error: 'the profile has authenticated routes: give a credential (--api-key KEY or --session TOKEN)' };
  return {
    ok: true,
    value: {
      rps,
      requests,
      sse,
      eventRate: options.eventRate ?? file.eventRate ?? 2,
      quoteIntervalMs: options.quoteIntervalMs ?? file.quoteIntervalMs ?? 1000,
      credential,
    },
  };
}

/** The documented operations of an OpenAPI document: method → path templates (`{x}` matching one segment), and which need a session. */
export interface Documented {
  operations: { method: string; pattern: RegExp; template: string; secured: boolean }[];
}

export function documentedOperations(openapi: unknown): Documented {
  const operations: Documented['operations'] = [];
  const paths = (openapi as { paths?: Record<string, Record<string, { security?: Record<string, unknown>[] }>> }).paths ?? {};
  for (const [template, item] of Object.entries(paths)) {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, operation] of Object.entries(item)) {
      // OpenAPI 3 §4.8.10: an empty requirement `{}` in the list makes the credential optional.
      const requirements = operation.security ?? [];
      const secured = requirements.length > 0 && requirements.every((s) => Object.keys(s).length > 0);
      operations.push({ method: method.toUpperCase(), pattern, template, secured });
    }
  }
  return { operations };
}

/** The profile's requests the document does not allow: an undocumented path, a method other than GET (POST to /api/graphql aside), a session route without a credential. */
export function undocumented(profile: Profile, documented: Documented): string[] {
  const problems: string[] = [];
  for (const request of profile.requests) {
    for (const path of new Set(request.paths)) {
      const bare = path.split('?')[0]!;
      const op = documented.operations.find((o) => o.method === request.method && o.pattern.test(bare));
      if (!op) problems.push(`${request.method} ${bare} is not a documented ${request.method === 'GET' ? 'GET route' : 'operation'} of the target (its /openapi/json)`);
      else if (request.method !== 'GET' && op.template !== '/api/graphql') problems.push(`${request.method} ${bare}: only GET routes and POST /api/graphql are loaded (writes would change the deployment)`);
      else if (op.secured && !request.auth) problems.push(`${request.method} ${bare} needs a session: mark it "auth": true in the profile and give --api-key or --session`);
    }
  }
  return [...new Set(problems)];
}
