import { describe, expect, it } from 'bun:test';
import { crossSiteWrite } from '../../src/auth/csrf';

const request = (method: string, headers: Record<string, string>) => new Request('http://api.breakline.test/api/keys', { method, headers });
const ALLOWED = ['https://app.breakline.test'];

describe('CSRF rule for cookie-authenticated writes', () => {
  const cases: [string, string, Record<string, string>, boolean][] = [
    ['a GET from another site (reads are not writes)', 'GET', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' }, true],
    ['a POST the browser marks same-origin', 'POST', { 'sec-fetch-site': 'same-origin', origin: 'http://api.breakline.test' }, true],
    ['a POST typed by the user (Sec-Fetch-Site none)', 'POST', { 'sec-fetch-site': 'none' }, true],
    ['a POST the browser marks cross-site', 'POST', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' }, false],
    ['a DELETE the browser marks same-site (a sibling subdomain)', 'DELETE', { 'sec-fetch-site': 'same-site', origin: 'https://blog.breakline.test' }, false],
    ['a cross-site POST from an allowed origin', 'POST', { 'sec-fetch-site': 'cross-site', origin: 'https://app.breakline.test' }, true],
    ['an older browser: Origin matching Host', 'POST', { origin: 'http://api.breakline.test', host: 'api.breakline.test' }, true],
    ['an older browser: Origin of another host', 'PUT', { origin: 'https://evil.test', host: 'api.breakline.test' }, false],
    ['an older browser: Origin null (sandboxed frame)', 'POST', { origin: 'null', host: 'api.breakline.test' }, false],
    ['an older browser: an allowed Origin', 'PATCH', { origin: 'https://app.breakline.test', host: 'api.breakline.test' }, true],
    ['no Origin and no Sec-Fetch-Site (curl, a server)', 'POST', {}, true],
  ];
  it.each(cases)('%s', (_name, method, headers, allowed) => {
    const refusal = crossSiteWrite(request(method, headers), ALLOWED);
    expect(refusal === null).toBe(allowed);
    if (!allowed) expect(refusal).toContain('may not send cookie-authenticated writes');
  });
});
