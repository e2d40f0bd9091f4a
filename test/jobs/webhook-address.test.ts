/**
 * The webhook address rule against every IPv6 form that carries an IPv4
 * address (issue 28 item 6): each form of a loopback, private, link-local and
 * metadata address is refused with ALERT_WEBHOOK_ALLOW_PRIVATE off, and the
 * same forms of a public address are judged by the IPv6 range they sit in.
 * The embedded addresses were worked by hand from the RFCs' layouts (RFC 4291
 * §2.5.5, RFC 6052 §2.2 with its examples, RFC 3056 §2, RFC 4380 §4).
 */
import { describe, expect, it } from 'bun:test';
import ipaddr from 'ipaddr.js';
import { embeddedIPv4 } from '../../src/jobs/embedded-ipv4';
import { checkWebhookUrl, refusedAddress } from '../../src/jobs/webhook-address';

/** [form, URL host (as a user writes it), the IPv4 address it carries] */
const CARRYING: [string, string, string][] = [
  ['IPv4-compatible, dotted', '[::127.0.0.1]', '127.0.0.1'],
  ['IPv4-compatible, hex', '[::7f00:1]', '127.0.0.1'],
  ['IPv4-compatible, private', '[::10.0.0.1]', '10.0.0.1'],
  ['IPv4-compatible, metadata', '[::169.254.169.254]', '169.254.169.254'],
  ['IPv4-mapped, dotted', '[::ffff:127.0.0.1]', '127.0.0.1'],
  ['IPv4-mapped, hex', '[::ffff:c0a8:1]', '192.168.0.1'],
  ['IPv4-mapped, full', '[0:0:0:0:0:ffff:7f00:1]', '127.0.0.1'],
  ['SIIT IPv4-translated', '[::ffff:0:127.0.0.1]', '127.0.0.1'],
  ['NAT64 well-known prefix', '[64:ff9b::127.0.0.1]', '127.0.0.1'],
  ['NAT64 well-known prefix, private', '[64:ff9b::a9fe:a9fe]', '169.254.169.254'],
  ['NAT64 local-use /96', '[64:ff9b:1::7f00:1]', '127.0.0.1'],
  // RFC 6052 §2.4's /48 example layout: 192.0.2.33 as c000:2 around the u octet; here 10.0.0.1 → 0a00 : 00|00 : 01|00.
  ['NAT64 local-use /48', '[64:ff9b:1:a00:0:100::]', '10.0.0.1'],
  ['6to4', '[2002:7f00:1::1]', '127.0.0.1'],
  ['6to4, private', '[2002:c0a8:101::]', '192.168.1.1'],
  // RFC 4380 §4: the client address is stored inverted: 127.0.0.1 → 80ff:fffe.
  ['Teredo, client', '[2001:0:4136:e378:8000:63bf:80ff:fffe]', '127.0.0.1'],
  ['Teredo, client private', '[2001:0:4136:e378:8000:63bf:f5ff:fffe]', '10.0.0.1'],
];

describe('IPv4 addresses carried in IPv6', () => {
  for (const [form, host, carried] of CARRYING) {
    it(`reads ${carried} out of ${host} (${form})`, () => {
      const hostname = new URL(`https://${host}/`).hostname.slice(1, -1);
      expect(embeddedIPv4(ipaddr.IPv6.parse(hostname)).map(String)).toContain(carried);
    });
  }

  it('finds none in a plain IPv6 address, the unspecified one or loopback', () => {
    for (const address of ['2606:4700::1111', '::', '::1', 'fe80::1']) expect(embeddedIPv4(ipaddr.IPv6.parse(address))).toEqual([]);
  });
});

describe('the webhook address rule', () => {
  const noDns = { resolve: async () => [] as string[] };

  for (const [form, host, carried] of CARRYING) {
    it(`refuses https://${host}/ (${form} of ${carried}) with ALERT_WEBHOOK_ALLOW_PRIVATE off`, async () => {
      const check = await checkWebhookUrl(`https://${host}/hook`, { allowPrivate: false, ...noDns });
      expect(check.ok).toBe(false);
    });
  }

  it('names the carried address and its range', async () => {
    const check = await checkWebhookUrl('https://[::127.0.0.1]/', { allowPrivate: false, ...noDns });
    expect(check).toEqual({ ok: false, reason: '::7f00:1 is an address in the loopback range (it carries 127.0.0.1) (ALERT_WEBHOOK_ALLOW_PRIVATE admits it)' });
  });

  it('refuses a name that resolves to such a form', async () => {
    const check = await checkWebhookUrl('https://hooks.example/x', { allowPrivate: false, resolve: async () => ['2606:4700::1111', '::7f00:1'] });
    expect(check.ok).toBe(false);
  });

  it('admits the carried private and loopback addresses when the flag allows private ranges, but never a carried multicast or unspecified one', () => {
    expect(refusedAddress('::7f00:1', true)).toBeNull();
    expect(refusedAddress('2002:c0a8:101::', true)).toBeNull();
    expect(refusedAddress('2002:e000:1::', true)).toBe('an address in the multicast range (it carries 224.0.0.1)');
    expect(refusedAddress('64:ff9b::', true)).toBe('an address in the unspecified range (it carries 0.0.0.0)');
  });

  it('judges a carried public address by the IPv6 range it sits in', () => {
    // An IPv4-compatible address of a public host is ordinary unicast; 6to4, NAT64 and Teredo are special-purpose ranges.
    expect(refusedAddress('::808:808', false)).toBeNull();
    expect(refusedAddress('2002:808:808::1', false)).toBe('an address in the 6to4 range (ALERT_WEBHOOK_ALLOW_PRIVATE admits it)');
    expect(refusedAddress('2606:4700::1111', false)).toBeNull();
  });
});
