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
 * Sources: Express "Express behind proxies" (trust proxy: hop count, subnets,
 * the `loopback`/`linklocal`/`uniquelocal` names); jshttp/proxy-addr
 * `alladdrs`; nginx ngx_http_realip_module (`set_real_ip_from`,
 * `real_ip_recursive`).
 *
 * @example
 * const addressOf = clientAddressOf({ hops: 1, ranges: null, legacy: false });
 * addressOf(new Request('http://x/', { headers: { 'x-forwarded-for': 'spoofed, 203.0.113.7' } }), proxySocket); // => '203.0.113.7'
 */
import ipaddr from 'ipaddr.js';
import type { ProxyTrust } from '../config';

/** What the server tells of a request's socket (Bun's `server.requestIP`). */
export type SocketInfo = { requestIP?(request: Request): { address: string } | null } | null;

/** A request's client address. */
export type AddressOf = (request: Request, server: SocketInfo) => string;

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The socket's peer address, or `local` when there is no socket. */
export const socketAddress = (request: Request, server: SocketInfo): string => server?.requestIP?.(request)?.address ?? 'local';

/** IPv4-mapped IPv6 as the IPv4 address it maps (`::ffff:10.0.0.1` is `10.0.0.1`). */
function unmapped(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
}

/**
 * One address as a proxy writes it: an IPv4 dotted quad (no other IPv4
 * spelling: `127.1` and octal forms are refused), an IPv6 address, either
 * with a port (`IPv4:port`, `[IPv6]:port`, as Azure's gateway writes them),
 * or a bracketed IPv6 alone; null for anything else.
 */
export function parseHop(text: string): Address | null {
  let host = text.trim();
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0 || (close !== host.length - 1 && !/^:\d{1,5}$/.test(host.slice(close + 1)))) return null;
    host = host.slice(1, close);
    return ipaddr.IPv6.isValid(host) ? unmapped(ipaddr.IPv6.parse(host)) : null;
  }
  const colon = host.indexOf(':');
  if (colon >= 0 && host.indexOf(':', colon + 1) < 0) {
    // One colon: IPv4 with a port (an IPv6 address has at least two).
    if (!/^\d{1,5}$/.test(host.slice(colon + 1))) return null;
    host = host.slice(0, colon);
  }
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return ipaddr.IPv4.parse(host);
  if (colon >= 0 && ipaddr.IPv6.isValid(host)) return unmapped(ipaddr.IPv6.parse(host));
  return null;
}

/** An address as bucket keys and logs show it: dotted quad, or RFC 5952 IPv6. */
export const addressText = (address: Address): string => (address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString());

/** Whether hop `index` (0 = the socket peer) at `address` (null: not an address, e.g. `local`) is a trusted proxy. */
export type HopTrust = (address: Address | null, index: number) => boolean;

/** The trust of a `TRUST_PROXY` setting: under the hop count, and in the ranges when there are ranges. */
export function hopTrust(trust: ProxyTrust): HopTrust {
  if (trust.ranges === null) return (_address, index) => index < trust.hops;
  const ranges = trust.ranges.map((range) => ipaddr.parseCIDR(range));
  return (address, index) => index < trust.hops && address !== null && ranges.some(([network, bits]) => address.kind() === network.kind() && address.match(network, bits));
}

/**
 * The client address of a request whose socket peer is `peer`, given the
 * `X-Forwarded-For` and `X-Real-IP` values it carried (null when absent).
 */
export function resolveClientAddress(peer: string, forwardedFor: string | null, realIp: string | null, trusted: HopTrust): string {
  const parsedPeer = parseHop(peer);
  const peerText = parsedPeer ? addressText(parsedPeer) : peer;
  if (!trusted(parsedPeer, 0)) return peerText;
  const entries = forwardedFor?.trim() ? forwardedFor.split(',') : realIp?.trim() ? [realIp] : [];
  let client = peerText;
  for (let hop = 1; hop <= entries.length; hop++) {
    const next = parseHop(entries[entries.length - hop]!);
    // Not an address: the hop that reported it is the client (see the module comment).
    if (next === null) return client;
    client = addressText(next);
    if (!trusted(next, hop)) return client;
  }
  return client;
}

/** The function that derives client addresses under a `TRUST_PROXY` setting (null: off). Build it once. */
export function clientAddressOf(trust: ProxyTrust | null): AddressOf {
  if (trust === null) return socketAddress;
  const trusted = hopTrust(trust);
  return (request, server) => resolveClientAddress(socketAddress(request, server), request.headers.get('x-forwarded-for'), request.headers.get('x-real-ip'), trusted);
}
