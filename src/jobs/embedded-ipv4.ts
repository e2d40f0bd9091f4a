/**
 * @module jobs/embedded-ipv4
 * The IPv4 addresses an IPv6 address carries, so an address rule can judge
 * `::127.0.0.1` as the loopback address it stands for. The forms:
 *
 * | form | prefix | where the IPv4 address sits | source |
 * |---|---|---|---|
 * | IPv4-mapped | ::ffff:0:0/96 | last 32 bits | RFC 4291 §2.5.5.2 |
 * | IPv4-compatible (deprecated) | ::/96 (not :: or ::1) | last 32 bits | RFC 4291 §2.5.5.1 |
 * | SIIT IPv4-translated | ::ffff:0:0:0/96 | last 32 bits | RFC 6145 / RFC 2765 §2.1 |
 * | NAT64 well-known prefix | 64:ff9b::/96 | last 32 bits | RFC 6052 §2.1 |
 * | NAT64 local-use prefix | 64:ff9b:1::/48 | around the u octet (bits 64–71), where the operator's /48, /56, /64 or /96 puts it: all four read | RFC 8215, RFC 6052 §2.2 |
 * | 6to4 | 2002::/16 | bits 16–47 | RFC 3056 §2 |
 * | Teredo | 2001::/32 | server: bits 32–63; client: last 32 bits, inverted | RFC 4380 §4 |
 *
 * ipaddr.js reads a dotted tail after `::` as IPv4-mapped (`::127.0.0.1` parses
 * as `::ffff:127.0.0.1`), so text with a dotted tail is first written the way
 * the WHATWG URL parser writes an IPv6 host (all hex), then parsed.
 *
 * @example
 * embeddedIPv4(ipaddr.IPv6.parse("2002:7f00:1::")).map(String); // => ["127.0.0.1"]
 */
import ipaddr from 'ipaddr.js';

/** An address parsed by ipaddr.js, an IPv6 one with a dotted tail read as the URL parser reads it. */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.includes(':') && address.includes('.')) {
    try {
      return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
    } catch {
      // not an IPv6 host the URL parser takes: ipaddr.js decides below
    }
  }
  return ipaddr.parse(address);
}

/** The IPv4 address in `bytes` at the four positions given. */
const at = (bytes: number[], ...positions: [number, number, number, number]) => new ipaddr.IPv4(positions.map((i) => bytes[i]!));

/** Every IPv4 address `address` carries (none for a plain IPv6 address). */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const b = address.toByteArray();
  const zeros = (from: number, to: number) => b.slice(from, to).every((byte) => byte === 0);
  const last = at(b, 12, 13, 14, 15);
  // ::ffff:a.b.c.d; ::a.b.c.d (:: and ::1 are their own ranges, so the last 32 bits must reach past 16); ::ffff:0:a.b.c.d.
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return [last];
  if (zeros(0, 12) && (b[12] !== 0 || b[13] !== 0)) return [last];
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return [last];
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) {
    if (zeros(4, 12)) return [last];
    // 64:ff9b:1::/48 is carved by each operator into a /48, /56, /64 or /96 prefix (RFC 6052 §2.2 places the
    // address around the u octet, bits 64–71, for each): all four readings.
    if (b[4] === 0 && b[5] === 1) return [at(b, 6, 7, 9, 10), at(b, 7, 9, 10, 11), at(b, 9, 10, 11, 12), last];
  }
  if (b[0] === 0x20 && b[1] === 0x02) return [at(b, 2, 3, 4, 5)];
  // Teredo: the client's address (obfuscated: every bit inverted) is where packets go; the server's too.
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) return [new ipaddr.IPv4(b.slice(12).map((byte) => ~byte & 0xff)), at(b, 4, 5, 6, 7)];
  return [];
}
