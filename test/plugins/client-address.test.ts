/**
 * The client address behind proxies (plugins/client-address): the right-most
 * X-Forwarded-For entry that is not a trusted proxy, as Express's
 * `trust proxy` (jshttp/proxy-addr) and nginx's `real_ip_recursive on` take it.
 * Addresses are from the documentation ranges (RFC 5737, RFC 3849) and
 * private ones (RFC 1918, RFC 4193) for the proxies.
 */
import { describe, expect, it } from 'bun:test';
import { loadConfig } from '../../src/config';
import { clientAddressOf, HopReader, hopTrust, resolveClientAddress } from '../../src/plugins/client-address';

const trustOf = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

/** [case, TRUST_PROXY, socket peer, X-Forwarded-For, X-Real-IP, client address]. */
const TABLE: [string, string, string, string | null, string | null, string][] = [
  // One proxy in front (HAProxy option forwardfor, nginx $proxy_add_x_forwarded_for).
  ['one hop: the entry the proxy appended', '1', '10.0.0.1', '203.0.113.7', null, '203.0.113.7'],
  ['one hop: spoofed entries left of it are never reached', '1', '10.0.0.1', '6.6.6.6, 198.51.100.99, 203.0.113.7', null, '203.0.113.7'],
  ['one hop: without spaces after the commas', '1', '10.0.0.1', '6.6.6.6,203.0.113.7', null, '203.0.113.7'],
  ['one hop: no header, the proxy itself', '1', '10.0.0.1', null, null, '10.0.0.1'],
  ['one hop: whatever the proxy address is', '1', '192.0.2.10', '203.0.113.7', null, '203.0.113.7'],
  // Several proxies (a CDN, then the balancer).
  ['two hops: the entry the outer proxy appended', '2', '10.0.0.1', '6.6.6.6, 203.0.113.7, 198.51.100.2', null, '203.0.113.7'],
  ['two hops, one entry: the furthest address known', '2', '10.0.0.1', '203.0.113.7', null, '203.0.113.7'],
  ['addresses: every trusted hop skipped', '10.0.0.0/8, 198.51.100.0/24', '10.0.0.1', '6.6.6.6, 203.0.113.7, 198.51.100.2, 10.0.0.9', null, '203.0.113.7'],
  ['addresses: a socket peer that is not a proxy is the client, headers ignored', '10.0.0.0/8', '192.0.2.9', '203.0.113.7', null, '192.0.2.9'],
  ['addresses: every hop trusted, the left-most', '10.0.0.0/8', '10.0.0.1', '10.0.0.5, 10.0.0.6', null, '10.0.0.5'],
  ['addresses: a single address, not a range', '10.0.0.1', '10.0.0.1', '6.6.6.6, 203.0.113.7', null, '203.0.113.7'],
  ['addresses: a named range', 'loopback', '127.0.0.1', '6.6.6.6, 203.0.113.7', null, '203.0.113.7'],
  // IPv6.
  ['IPv6 proxy and client, the client normalised (RFC 5952)', 'fd00::/8', 'fd00::1', '2001:db8::1, 2001:DB8:0:0::7', null, '2001:db8::7'],
  ['IPv4-mapped IPv6 entry as IPv4', '1', '10.0.0.1', '::ffff:203.0.113.7', null, '203.0.113.7'],
  ['IPv4-mapped socket peer matches an IPv4 range', '10.0.0.0/8', '::ffff:10.0.0.1', '203.0.113.7', null, '203.0.113.7'],
  ['a bracketed IPv6 entry with a port', '1', '10.0.0.1', '[2001:db8::7]:443', null, '2001:db8::7'],
  ['an IPv4 entry with a port', '1', '10.0.0.1', '203.0.113.7:5555', null, '203.0.113.7'],
  ['an IPv6 range does not hold an IPv4 peer', '::/0', '10.0.0.1', '203.0.113.7', null, '10.0.0.1'],
  // Malformed entries stop the walk: the hop that reported one is the client.
  ['a malformed entry where the client would be: the proxy', '1', '10.0.0.1', '203.0.113.7, garbage', null, '10.0.0.1'],
  ['a malformed entry left of the client is never reached', '1', '10.0.0.1', 'garbage, 203.0.113.7', null, '203.0.113.7'],
  ['an empty entry', '1', '10.0.0.1', '203.0.113.7,', null, '10.0.0.1'],
  ['"unknown"', '1', '10.0.0.1', 'unknown', null, '10.0.0.1'],
  ['a short IPv4 form (127.1)', '1', '10.0.0.1', '127.1', null, '10.0.0.1'],
  ['a leading-zero IPv4 form', '1', '10.0.0.1', '010.0.0.1', null, '10.0.0.1'],
  ['an unclosed bracket', '1', '10.0.0.1', '[2001:db8::7', null, '10.0.0.1'],
  ['a port that is not a number', '1', '10.0.0.1', '203.0.113.7:http', null, '10.0.0.1'],
  ['a malformed entry behind a trusted one', '10.0.0.0/8', '10.0.0.1', 'garbage, 10.0.0.2', null, '10.0.0.2'],
  // X-Real-IP (nginx proxy_set_header X-Real-IP $remote_addr) only without X-Forwarded-For.
  ['X-Real-IP without X-Forwarded-For', '1', '10.0.0.1', null, '203.0.113.7', '203.0.113.7'],
  ['X-Forwarded-For wins over X-Real-IP', '1', '10.0.0.1', '203.0.113.7', '198.51.100.1', '203.0.113.7'],
  ['a malformed X-Real-IP', '1', '10.0.0.1', null, 'not-an-ip', '10.0.0.1'],
  ['a blank X-Forwarded-For falls back to X-Real-IP', '1', '10.0.0.1', '  ', '203.0.113.7', '203.0.113.7'],
  // The old boolean: one hop, on a loopback or private address only.
  ['true: a proxy on loopback', 'true', '127.0.0.1', '6.6.6.6, 203.0.113.7', null, '203.0.113.7'],
  ['true: a proxy on a private network', 'true', '172.16.4.2', '6.6.6.6, 203.0.113.7', null, '203.0.113.7'],
  ['true: a public peer is a client speaking directly', 'true', '192.0.2.9', '203.0.113.7', null, '192.0.2.9'],
  ['true: one hop only, two private proxies give the outer one', 'true', '10.0.0.1', '203.0.113.7, 10.0.0.2', null, '10.0.0.2'],
];

describe('the client address behind trusted proxies', () => {
  for (const [name, setting, peer, forwarded, realIp, client] of TABLE) {
    it(`${name} (TRUST_PROXY=${setting})`, () => {
      const trust = trustOf(setting);
      if (trust === null) throw new Error('expected a trust setting');
      expect(resolveClientAddress(peer, forwarded, realIp, hopTrust(trust))).toBe(client);
    });
  }

  it('reads neither header when TRUST_PROXY is off', () => {
    const addressOf = clientAddressOf(trustOf('false'));
    const request = new Request('http://localhost/', { headers: { 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '198.51.100.1' } });
    expect(addressOf(request, { requestIP: () => ({ address: '192.0.2.9' }) })).toBe('192.0.2.9');
    expect(addressOf(request, null)).toBe('local');
  });

  it('reads the headers of the request and the socket of the server', () => {
    const addressOf = clientAddressOf(trustOf('1'));
    const request = new Request('http://localhost/', { headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' } });
    expect(addressOf(request, { requestIP: () => ({ address: '10.0.0.1' }) })).toBe('203.0.113.7');
  });

  it('parses the forms proxies write, and nothing else', () => {
    const reader = new HopReader(null);
    expect(['203.0.113.7', ' 203.0.113.7 ', '203.0.113.7:80', '2001:db8::7', '[2001:db8::7]', '[2001:db8::7]:80'].map((text) => reader.read(text)?.text)).toEqual([
      '203.0.113.7',
      '203.0.113.7',
      '203.0.113.7',
      '2001:db8::7',
      '2001:db8::7',
      '2001:db8::7',
    ]);
    for (const text of ['', 'unknown', '_hidden', '127.1', '0x7f.0.0.1', '256.1.1.1', '1.2.3.4.5', '1..2.3', '1.2.3.4:', '1.2.3.4:123456', '[::1]x', '[::1]:', '2001:db8::7:80:1:2:3:4', '1.2.3.4:80:1']) {
      expect({ text, parsed: reader.read(text) }).toEqual({ text, parsed: null });
    }
  });

  it('matches IPv4 ranges by prefix, whatever the host bits of the range, and IPv6 ranges', () => {
    const reader = new HopReader(['10.1.2.3/8', '192.168.4.0/22', '0.0.0.0/0', 'fd00::/8']);
    const only = new HopReader(['192.168.4.0/22', 'fd00::/8']);
    expect(['192.168.7.255', '192.168.8.0', '10.200.0.1', 'fd12::1', 'fe80::1', '::ffff:192.168.5.5'].map((text) => only.read(text)?.inRanges)).toEqual([true, false, false, true, false, true]);
    expect(reader.read('203.0.113.7')?.inRanges).toBe(true);
  });
});

describe('TRUST_PROXY', () => {
  it('is off by default and for false, 0, no, off', () => {
    expect(loadConfig({}).trustProxy).toBeNull();
    for (const value of ['false', '0', 'no', 'off', '']) expect(trustOf(value)).toBeNull();
  });

  it('reads a number as a hop count from any address', () => {
    expect(trustOf('1')).toEqual({ hops: 1, ranges: null, legacy: false });
    expect(trustOf('2')).toEqual({ hops: 2, ranges: null, legacy: false });
  });

  it('reads addresses, CIDRs and named ranges as trusted proxies at any depth', () => {
    expect(trustOf('10.0.0.0/8, 203.0.113.5,  ::1, uniquelocal')).toEqual({
      hops: Number.POSITIVE_INFINITY,
      ranges: ['10.0.0.0/8', '203.0.113.5/32', '::1/128', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
      legacy: false,
    });
  });

  it('reads the old true as one hop on a loopback or private address', () => {
    const trust = trustOf('true');
    expect(trust).toMatchObject({ hops: 1, legacy: true });
    expect(trust?.ranges).toEqual(expect.arrayContaining(['127.0.0.0/8', '::1/128', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7', '169.254.0.0/16', 'fe80::/10']));
  });

  it('refuses what is not an address, a range, a name or a sane hop count, naming it', () => {
    for (const [value, named] of [
      ['nginx', "'nginx'"],
      ['10.0.0.0/8, 10.0.0.300', "'10.0.0.300'"],
      ['127.1', "'127.1'"],
      ['10.0.0.0/33', "'10.0.0.0/33'"],
      ['17', 'at most 16'],
    ]) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(named);
    }
  });
});
