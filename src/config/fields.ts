/**
 * @module config/fields
 * The pieces the configuration schema (config/schema) is built from: `variable()`, which ties a zod
 * schema to the environment variable it reads, its default and its documentation; the value types the
 * variables share (switches, lists, URLs, origins, per-tier counts, proxy trust); and `variablesOf()`,
 * which walks a nested schema back to its variables (loadConfig feeds them from the environment, the
 * README's table is written from them: scripts/config-table.ts).
 *
 * @example
 * const port = variable('PORT', z.coerce.number().int(), { default: '3000', doc: 'HTTP port' });
 * variablesOf(z.object({ port })); // => [{ name: 'PORT', path: ['port'], default: '3000', doc: 'HTTP port' }]
 */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { TIERS, type Tier } from '../domain/tiers';

/** What the documentation and the loader know of one environment variable. */
export interface VariableMeta {
  name: string;
  /** The text of the variable when it is unset or blank, parsed like any other value; absent → unset. */
  default?: string;
  /** How the README shows a default that is computed, not written (`the machine's cores`). */
  shownDefault?: string;
  /** One line of Markdown for the README's table. */
  doc: string;
}

/** A variable found in the schema, with the path of its value in the parsed configuration. */
export interface Variable extends VariableMeta {
  path: string[];
}

const variables = z.registry<VariableMeta>();

/**
 * The schema of one environment variable. Its input is the variable's text (or its `default`'s); a
 * variable without a default must accept `undefined` (`.optional()`).
 */
export function variable<T extends z.ZodType>(name: string, schema: T, meta: Omit<VariableMeta, 'name'>): T {
  // A fresh instance each time: the registry is keyed by instance, and value types are shared.
  const own = schema.clone() as T;
  variables.add(own, { name, ...meta });
  return own;
}

/** Every variable of a nested schema, in declaration order (objects and the inputs of their transforms are walked). */
export function variablesOf(schema: z.ZodType, path: string[] = []): Variable[] {
  const meta = variables.get(schema);
  if (meta) return [{ ...meta, path }];
  if (schema instanceof z.ZodObject) return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, child]) => variablesOf(child, [...path, key]));
  if (schema instanceof z.ZodPipe) return variablesOf(schema.in as z.ZodType, path);
  return [];
}

export const API_VERSIONS = ['1.0.0', '1.1.0'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes' || v === 'on');

/** `on` / `off`, as a boolean. */
export const onOff = z.enum(['on', 'off']).transform((v) => v === 'on');
const trimSlashes = (url: string) => url.replace(/\/+$/, '');
/** An http(s) URL without its trailing slashes (paths are appended to it). */
export const httpUrl = z.string().regex(/^https?:\/\//, 'must be an http(s) URL').transform(trimSlashes);
export const wsUrl = z.string().regex(/^wss?:\/\//, 'must be a ws(s):// URL').transform(trimSlashes);

/** A comma-separated list (blank items dropped). */
export const list = z.string().transform((v) => v.split(',').map((item) => item.trim()).filter(Boolean));

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** JWKS are fetched over https only (keys from a tampered fetch would sign anything), plain http only on loopback (tests, sidecars). */
export const jwksUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  } catch {
    return false;
  }
}, 'must be an https:// URL (http:// only on loopback)');

/** Three comma-separated counts, for the tiers free, pro and enterprise, each at least the one before. */
export const perTier = z
  .string()
  .regex(/^\s*\d+\s*,\s*\d+\s*,\s*\d+\s*$/, 'must be three counts for free,pro,enterprise, e.g. 3,20,100')
  .transform((v) => v.split(',').map((n) => Number(n.trim())))
  .refine(([free, pro, enterprise]) => free! >= 1 && free! <= pro! && pro! <= enterprise!, 'each count must be ≥ 1 and not below the one before (free ≤ pro ≤ enterprise)')
  .transform(([free, pro, enterprise]): Record<Tier, number> => ({ free: free!, pro: pro!, enterprise: enterprise! }));

/**
 * Quotas by tier, one variable each (`<prefix>_FREE`, `_PRO`, `_ENTERPRISE`), each not below the one
 * under it: the issue names the higher tier's variable.
 */
export function tierQuotas(prefix: string, defaults: Record<Tier, string>, docs: Record<Tier, string>) {
  const count = z.coerce.number().int().min(1);
  const name = (tier: Tier) => `${prefix}_${tier.toUpperCase()}`;
  return z
    .object({
      free: variable(name('free'), count, { default: defaults.free, doc: docs.free }),
      pro: variable(name('pro'), count, { default: defaults.pro, doc: docs.pro }),
      enterprise: variable(name('enterprise'), count, { default: defaults.enterprise, doc: docs.enterprise }),
    })
    .superRefine((quotas, ctx) => {
      for (const [lower, higher] of [[TIERS[0], TIERS[1]], [TIERS[1], TIERS[2]]] as const) {
        if (quotas[higher] < quotas[lower]) ctx.addIssue({ code: 'custom', path: [higher], message: `must not be below ${name(lower)} (${quotas[lower]})` });
      }
    });
}

/** Origins `scheme://host[:port]`, normalised as the browser sends them in `Origin`. */
export const origins = list.pipe(
  z.array(
    z.string().transform((value, ctx) => {
      try {
        const origin = new URL(value).origin;
        if (origin !== 'null') return origin;
      } catch {}
      ctx.addIssue({ code: 'custom', message: `'${value}' is not an origin like https://app.example.com` });
      return z.NEVER;
    }),
  ),
);

/**
 * Which hops in front of the server are trusted proxies (src/plugins/client-address walks them):
 * hop 0 is the socket peer, hops 1, 2, … the `X-Forwarded-For` entries from the right.
 */
export interface ProxyTrust {
  /** Hops trusted at most, counted from the socket peer (Infinity: as many as are in `ranges`). */
  hops: number;
  /** The CIDRs a trusted hop's address must be in; null: any address. */
  ranges: readonly string[] | null;
  /** Set by the old boolean `TRUST_PROXY=true`: one hop on a loopback or private address (the boot log warns). */
  legacy: boolean;
}

/** Express's named ranges (proxy-addr), the names `TRUST_PROXY` accepts beside addresses and CIDRs. */
export const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** An IPv4 dotted quad or an IPv6 address (not ipaddr.js's lenient IPv4 forms such as `127.1`). */
const strictAddress = (text: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(':') && ipaddr.IPv6.isValid(text));

/** The most hops a count may name: more proxies than this in one chain is a mistake, not a topology. */
const MAX_HOPS = 16;

/**
 * `TRUST_PROXY`: off (`false`, `0`, unset), a hop count (`1`, `2`: that many proxies in front, whatever
 * their addresses), or the proxies' addresses (comma-separated IPs, CIDRs and the names of
 * {@link NAMED_RANGES}, any number of hops). `true` (the old boolean) reads as one hop on a loopback or
 * private address: safe when the proxy sits on such an address and clients cannot reach the server
 * from one directly.
 */
export const proxyTrust = z
  .string()
  .trim()
  .transform((value, ctx): ProxyTrust | null => {
    const lower = value.toLowerCase();
    if (['', 'false', '0', 'no', 'off'].includes(lower)) return null;
    if (['true', 'yes', 'on'].includes(lower)) return { hops: 1, ranges: Object.values(NAMED_RANGES).flat(), legacy: true };
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= MAX_HOPS) return { hops, ranges: null, legacy: false };
      ctx.addIssue({ code: 'custom', message: `a hop count must be at most ${MAX_HOPS}` });
      return z.NEVER;
    }
    const ranges: string[] = [];
    for (const item of value.split(',').map((entry) => entry.trim()).filter(Boolean)) {
      const named = NAMED_RANGES[item.toLowerCase()];
      if (named) ranges.push(...named);
      else if (strictAddress(item.split('/')[0]!) && ipaddr.isValidCIDR(item)) ranges.push(item);
      else if (strictAddress(item)) ranges.push(`${item}/${item.includes(':') ? 128 : 32}`);
      else {
        ctx.addIssue({ code: 'custom', message: `'${item}' is not an address, a CIDR or one of ${Object.keys(NAMED_RANGES).join(', ')} (or give a hop count, or true/false)` });
        return z.NEVER;
      }
    }
    return { hops: Number.POSITIVE_INFINITY, ranges, legacy: false };
  });
