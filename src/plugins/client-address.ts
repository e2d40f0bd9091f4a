/**
 * @module plugins/client-address
 * The one place a request's client address is derived (the rate limit, the
 * fast path through it, stream caps, GraphQL stream reservations): the
 * socket's peer, or, behind proxies named by `TRUST_PROXY`, the right-most
 * `X-Forwarded-For` entry that is not a trusted proxy.
 *
 * The walk is proxy-addr's (Express's `trust proxy`) and nginx's
 * `real_ip_recursive on`: the addresses are the socket peer (hop 0) and then
 * the `X-Forwarded-For` entries from right to left (hops 1, 2, …); the first
 * one that is not trusted is the client. A hop is trusted while its index is
 * under the hop count and its address is in the trusted ranges (see
 * {@link ProxyTrust}). Every proxy that appends (HAProxy `option forwardfor`,
 * nginx `$proxy_add_x_forwarded_for`, cloud balancers) writes its peer at the
 * right, so entries left of the last trusted hop are whatever the client
 * sent and are never reached: a client cannot choose its own bucket.
 *
 * - All hops trusted: the furthest address known (the left-most entry), as
 *   proxy-addr and nginx do.
 * - A malformed entry (not an IPv4 dotted quad, an IPv6 address, `IPv4:port`
 *   or `[IPv6]:port`): the walk stops and the hop that reported it is the
 *   client (a trusted proxy never writes one, so it came from the client side;
 *   such requests share that proxy's bucket instead of naming their own).
 * - `X-Real-IP` stands in for `X-Forwarded-For` only when that is absent (as
 *   one entry): nginx's `proxy_set_header X-Real-IP $remote_addr` overwrites
 *   it with its peer.
 * - Addresses from the headers are normalised (RFC 5952 for IPv6, IPv4-mapped
 *   IPv6 as IPv4), so one client has one bucket however a proxy spells it.
 *
 * Without `TRUST_PROXY` the headers are not read at all: the socket peer as
 * Bun reports it (`server.requestIP`), or `local` when there is no socket
 * (`app.handle` in tests).
 *
 * Cost: IPv4 is read by a loop over its characters, IPv6 by ipaddr.js (a few
 * microseconds a parse in Bun 1.4) and then held per text, so a walk costs
 * about 1 µs (0.6–1.5 µs measured, one to three hops, load 8 on 2 cores).
 *
 * Sources: Express "Express behind proxies" (trust proxy: hop count, subnets,
 * the `loopback`/`linklocal`/`uniquelocal` names); jshttp/proxy-addr
 * `alladdrs`; nginx ngx_http_realip_module (`set_real_ip_from`,
 * `real_ip_recursive`).
 *
 * @example
 * const addressOf = clientAddressOf({ hops: 1, ranges: null, legacy: false });
 * addressOf(new Request('http://x/', { headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' } }), proxySocket); // => '203.0.113.7'
 */
import ipaddr from 'ipaddr.js';
import type { ProxyTrust } from '../config';
import { Lru } from '../lru';
import type { SocketInfo } from './step';

/** A request's client address. */
export type AddressOf = (request: Request, server: SocketInfo) => string;

/** The socket's peer address, or `local` when there is no socket. */
export const socketAddress = (request: Request, server: SocketInfo): string => server?.requestIP?.(request)?.address ?? 'local';

/** One address of the walk: as bucket keys and logs show it (dotted quad, RFC 5952 IPv6), and whether it is in the trusted ranges. */
export interface Hop {
  text: string;
  inRanges: boolean;
}

/** IPv6 forms remembered per reader (ipaddr.js takes microseconds to parse one; a client's recur on every request). */
const IPV6_HELD = 1024;

/**
 * The dotted quad `text` from `start` to `end` as an unsigned 32-bit number,
 * or -1: four decimal parts of 0–255 without leading zeros (no `127.1`, no
 * octal). A loop over the characters: ipaddr.js takes microseconds a parse.
 */
function ipv4(text: string, start: number, end: number): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  for (let i = start; i <= end; i++) {
    const c = i === end ? 46 : text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || parts === 4) return -1;
      value = value * 256 + part;
      parts++;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return -1; // a leading zero
      part = part * 10 + (c - 48);
      if (part > 255) return -1;
      digits++;
    } else return -1;
  }
  return parts === 4 ? value : -1;
}

/** Whether `text` from `start` on is a port: 1–5 digits to the end. */
function isPort(text: string, start: number): boolean {
  const length = text.length - start;
  if (length < 1 || length > 5) return false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Reads the hops of a walk: the address forms proxies write (an IPv4 dotted
 * quad, an IPv6 address, either with a port as `IPv4:port` or `[IPv6]:port`,
 * as Azure's gateway writes them, or a bracketed IPv6 alone), normalised, each
 * tested against the trusted ranges once.
 */
export class HopReader {
  private readonly v4: [network: number, mask: number][] = [];
  private readonly v6: [ipaddr.IPv6, number][] = [];
  private readonly held = new Lru<string, Hop | null>({ maxEntries: IPV6_HELD });
  /** Every address is in range (a hop count): so is a peer that is no address (`local`). */
  readonly anyAddress: boolean;

  /** `ranges` null: every address counts as in range. */
  constructor(private readonly ranges: readonly string[] | null) {
    this.anyAddress = ranges === null;
    for (const range of ranges ?? []) {
      const [network, bits] = ipaddr.parseCIDR(range);
      if (network.kind() === 'ipv4') {
        const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
        this.v4.push([(ipv4(network.toString(), 0, network.toString().length) & mask) >>> 0, mask]);
      } else this.v6.push([network as ipaddr.IPv6, bits]);
    }
  }

  /** The hop `text` names, or null when it is not an address. */
  read(raw: string): Hop | null {
    const text = raw.trim();
    const colon = text.indexOf(':');
    // IPv4, alone or with a port (an IPv6 address has two colons at least).
    if (colon < 0 || (text.indexOf(':', colon + 1) < 0 && text.charCodeAt(0) !== 91)) {
      const end = colon < 0 ? text.length : colon;
      if (colon >= 0 && !isPort(text, colon + 1)) return null;
      const value = ipv4(text, 0, end);
      return value < 0 ? null : this.ipv4Hop(colon < 0 ? text : text.slice(0, end), value);
    }
    const held = this.held.get(text);
    if (held !== undefined) return held;
    const hop = this.ipv6Hop(text);
    this.held.set(text, hop);
    return hop;
  }

  private ipv4Hop(text: string, value: number): Hop {
    return { text, inRanges: this.ranges === null || this.v4.some(([network, mask]) => ((value & mask) >>> 0) === network) };
  }

  private ipv6Hop(text: string): Hop | null {
    let host = text;
    if (host.charCodeAt(0) === 91) {
      const close = host.indexOf(']');
      if (close < 0 || (close !== host.length - 1 && !(host.charCodeAt(close + 1) === 58 && isPort(host, close + 2)))) return null;
      host = host.slice(1, close);
    }
    if (!ipaddr.IPv6.isValid(host)) return null;
    const address = ipaddr.IPv6.parse(host);
    if (address.isIPv4MappedAddress()) {
      const mapped = address.toIPv4Address().toString();
      return this.ipv4Hop(mapped, ipv4(mapped, 0, mapped.length));
    }
    return { text: address.toRFC5952String(), inRanges: this.ranges === null || this.v6.some(([network, bits]) => address.match(network, bits)) };
  }
}

/** How the walk trusts: hops under `hops` whose address is in the ranges (all, without ranges). */
export interface HopTrust {
  hops: number;
  reader: HopReader;
}

export const hopTrust = (trust: ProxyTrust): HopTrust => ({ hops: trust.hops, reader: new HopReader(trust.ranges) });

/**
 * The client address of a request whose socket peer is `peer`, given the
 * `X-Forwarded-For` and `X-Real-IP` values it carried (null when absent).
 */
export function resolveClientAddress(peer: string, forwardedFor: string | null, realIp: string | null, { hops, reader }: HopTrust): string {
  // Hop 0: the socket peer (`local` without a socket is no address, and in no range).
  const first = reader.read(peer);
  const peerText = first ? first.text : peer;
  if (hops < 1 || !(first ? first.inRanges : reader.anyAddress)) return peerText;
  const entries = forwardedFor?.trim() ? forwardedFor.split(',') : realIp?.trim() ? [realIp] : [];
  let client = peerText;
  for (let hop = 1; hop <= entries.length; hop++) {
    const next = reader.read(entries[entries.length - hop]!);
    // Not an address: the hop that reported it is the client (see the module comment).
    if (next === null) return client;
    client = next.text;
    if (hop >= hops || !next.inRanges) return client;
  }
  return client;
}

/** The function that derives client addresses under a `TRUST_PROXY` setting (null: off). Build it once: it holds its reader. */
export function clientAddressOf(trust: ProxyTrust | null): AddressOf {
  if (trust === null) return socketAddress;
  const walk = hopTrust(trust);
  return (request, server) => {
    const forwarded = request.headers.get('x-forwarded-for');
    // X-Real-IP is read only without X-Forwarded-For (a header lookup is a third of the walk's time).
    return resolveClientAddress(socketAddress(request, server), forwarded, forwarded?.trim() ? null : request.headers.get('x-real-ip'), walk);
  };
}
