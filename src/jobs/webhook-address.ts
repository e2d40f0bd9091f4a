/**
 * @module jobs/webhook-address
 * Where a webhook may be sent (the SSRF rule): an `https://` URL without
 * credentials whose host — an address, or every address its name resolves
 * to — is public unicast. Loopback, private (RFC 1918, IPv6 unique local),
 * link-local (169.254/16 with the cloud metadata address, fe80::/10),
 * carrier-grade NAT, and every other special-purpose range ipaddr.js knows
 * (IANA's special-purpose registries, RFC 6890) are refused. An IPv6 address
 * that carries an IPv4 address is judged by that address too (webhook/ipv4-in-ipv6:
 * mapped, compatible, SIIT, NAT64, 6to4, Teredo), so `https://[::127.0.0.1]/`
 * is loopback. `allowPrivate` (the
 * `ALERT_WEBHOOK_ALLOW_PRIVATE` flag) admits those ranges but never the
 * unspecified, broadcast or multicast ones. The rule is checked when a rule is
 * written and again before every attempt (a name may resolve elsewhere
 * later); redirects are never followed (background/webhooks).
 *
 * @example
 * await checkWebhookUrl('https://10.0.0.7/hook', { allowPrivate: false });
 * // => { ok: false, reason: '10.0.0.7 is an address in the private range (ALERT_WEBHOOK_ALLOW_PRIVATE admits it)' }
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { embeddedIPv4, parseAddress } from './embedded-ipv4';

export type AddressCheck = { ok: true; url: URL } | { ok: false; reason: string };

export interface AddressOptions {
  allowPrivate: boolean;
  /** Name resolution (tests replace it); every address a name resolves to is checked. */
  resolve?: (hostname: string) => Promise<string[]>;
}

const NEVER = new Set(['unspecified', 'broadcast', 'multicast']);
const MAX_URL_LENGTH = 2048;

async function systemResolve(hostname: string): Promise<string[]> {
  return (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
}

/** The range name of an address (`unicast` for a public one), IPv4-mapped IPv6 read as IPv4. */
export function rangeOf(address: string): string {
  let parsed = parseAddress(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range();
}

const RANGE_WORDS: Record<string, string> = { linkLocal: 'link-local', uniqueLocal: 'unique-local (private)', carrierGradeNat: 'carrier-grade NAT' };

/** Why a range may not receive webhooks, or null when it may; `carried` names the IPv4 address an IPv6 one stands for. */
function refusedRange(range: string, allowPrivate: boolean, carried?: string): string | null {
  if (range === 'unicast') return null;
  if (allowPrivate && !NEVER.has(range)) return null;
  const hint = allowPrivate || NEVER.has(range) ? '' : ' (ALERT_WEBHOOK_ALLOW_PRIVATE admits it)';
  return `an address in the ${RANGE_WORDS[range] ?? range} range${carried ? ` (it carries ${carried})` : ''}${hint}`;
}

/**
 * Why an address may not receive webhooks, or null when it may: its own
 * range, and the range of every IPv4 address it carries (an IPv6 form of
 * 127.0.0.1 reaches what 127.0.0.1 reaches).
 */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  const own = refusedRange(rangeOf(address), allowPrivate);
  if (own) return own;
  const parsed = parseAddress(address);
  if (parsed.kind() !== 'ipv6') return null;
  for (const carried of embeddedIPv4(parsed as ipaddr.IPv6)) {
    const why = refusedRange(carried.range(), allowPrivate, carried.toString());
    if (why) return why;
  }
  return null;
}

export async function checkWebhookUrl(raw: string, options: AddressOptions): Promise<AddressCheck> {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `'${raw.slice(0, 100)}' is not a URL` };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: `webhooks are sent over https:// only, not ${url.protocol}//` };
  if (url.username || url.password) return { ok: false, reason: 'the URL may not carry credentials (user:password@)' };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch (error) {
      return { ok: false, reason: `${host} does not resolve (${(error as { code?: string }).code ?? String(error)})` };
    }
    if (addresses.length === 0) return { ok: false, reason: `${host} does not resolve` };
  }
  for (const address of addresses) {
    const why = ipaddr.isValid(address) ? refusedAddress(address, options.allowPrivate) : 'not an IP address';
    if (why) return { ok: false, reason: address === host ? `${host} is ${why}` : `${host} resolves to ${address}, ${why}` };
  }
  return { ok: true, url };
}
