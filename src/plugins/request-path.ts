/**
 * @module plugins/request-path
 * The path of a request URL as Bun hands it over, without building a URL
 * object: absolute (`http://host/api/x?q`) when the request named a host, and
 * origin-form (`/api/x?q`) when it did not (HTTP/1.0 without `Host`, or an
 * empty `Host`), which `new URL()` refuses. Every plugin that reads a path
 * reads it here, so no request shape skips the rate limit or crashes the
 * error renderer.
 *
 * @example
 * requestPath('http://localhost/api/bars?symbol=AAPL'); // => '/api/bars'
 * requestPath('/api/bars?symbol=AAPL'); // => '/api/bars'
 */

export function requestPath(url: string): string {
  const scheme = url.indexOf('://');
  let start = 0;
  if (scheme >= 0 && scheme < url.indexOf('/')) {
    start = url.indexOf('/', scheme + 3);
    if (start < 0) return '/';
  }
  const query = url.indexOf('?', start);
  const hash = url.indexOf('#', start);
  const end = Math.min(query < 0 ? url.length : query, hash < 0 ? url.length : hash);
  return url.slice(start, end) || '/';
}

