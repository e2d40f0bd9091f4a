/**
 * @module console/app/routes
 * The console's paths, without the browser: which page a path under /console
 * names, and the first API request of the signals page. The browser's router
 * (console/app/router) and the server (plugins/console, which tells the
 * browser what a page will load before its script asks: modulepreload and
 * preload links) read both from here, so they cannot disagree.
 *
 * @example
 * parse({ pathname: '/console/signals/AAPL-flat_base-…', search: '' }); // → { page: 'signal', id: 'AAPL-flat_base-…', search }
 * signalsFirstPage('daily'); // → '/api/breakouts?timeframe=daily&limit=50'
 */

export const BASE = '/console';

export type Page = 'signals' | 'signal' | 'record' | 'market' | 'account' | 'missing';

export interface Route {
  page: Page;
  /** The signal id of a signal's page. */
  id?: string;
  search: URLSearchParams;
}

export function parse(location: { pathname: string; search: string }): Route {
  const search = new URLSearchParams(location.search);
  const rest = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length).replace(/^\/+|\/+$/g, '') : '';
  const [first = '', ...others] = rest.split('/');
  if (first === '' || (first === 'signals' && others.length === 0)) return { page: 'signals', search };
  if (first === 'signals') {
    try {
      return { page: 'signal', id: decodeURIComponent(others.join('/')), search };
    } catch {
      return { page: 'missing', search }; // a malformed escape (`%E0`) names no signal
    }
  }
  if (first === 'record' || first === 'market' || first === 'account') return { page: first, search };
  return { page: 'missing', search };
}

/** The signals page's timeframe: the query's, daily by default. */
export const signalsTimeframe = (search: URLSearchParams) => search.get('timeframe') ?? 'daily';

/** Rows of the signals page's first request: one table page, drawn as soon as it arrives. */
export const FIRST_PAGE_LIMIT = 50;

/** The signals page's first request: the first page of the ranked list of `timeframe`. */
export const signalsFirstPage = (timeframe: string) => `/api/breakouts?${new URLSearchParams({ timeframe, limit: String(FIRST_PAGE_LIMIT) })}`;
