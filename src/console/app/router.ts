/**
 * @module console/app/router
 * The console's pages are paths under /console (the server answers the page
 * for every one of them), switched in the browser with the History API: a
 * click on a same-origin link to /console… changes the view without a
 * reload, Back and Forward work, and a shared link opens the same view. The
 * query string holds a view's state (filters, sort, tab) so it is linkable.
 *
 * @example
 * const { page, id, search } = useRoute(); // /console/signals/AAPL-flat_base-… → { page: 'signal', id: 'AAPL-flat_base-…' }
 */
import { useEffect, useState } from 'preact/hooks';
import { BASE, parse, type Route } from './routes';

export { BASE, parse, type Page, type Route } from './routes';

const listeners = new Set<() => void>();

export function navigate(url: string, replace = false): void {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** Sets query parameters of the current view (empty values removed) without a new history entry. */
export function setSearch(changes: Record<string, string | undefined>): void {
  const search = new URLSearchParams(location.search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') search.delete(key);
    else search.set(key, value);
  }
  const text = search.toString();
  navigate(`${location.pathname}${text ? `?${text}` : ''}`, true);
}

/** A signal's page; its timeframe rides along (an id names no timeframe), daily by default. */
export const signalPath = (id: string, timeframe = 'daily') => `${BASE}/signals/${encodeURIComponent(id)}${timeframe === 'daily' ? '' : `?timeframe=${timeframe}`}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(location));
  useEffect(() => {
    const update = () => setRoute(parse(location));
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** Same-origin links to the console switch views in place (modified clicks open tabs as usual), focus going to the view. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element).closest('a');
    if (!anchor || anchor.target || anchor.origin !== location.origin || !anchor.pathname.startsWith(BASE)) return;
    if (anchor.hash && anchor.pathname === location.pathname && anchor.search === location.search) return; // an in-page link (the skip link)
    event.preventDefault();
    navigate(anchor.pathname + anchor.search);
    scrollTo(0, 0);
    // A screen reader or keyboard user lands on the new view, as after a page load.
    document.getElementById('main')?.focus({ preventScroll: true });
  });
}
