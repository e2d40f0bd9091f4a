/**
 * @module console/app/main
 * The console's entry: the frame (skip link, navigation, the page) and the
 * page the path names. Pages load their data from the public API only
 * (console/app/api) and the live stream (console/app/stream). The signals
 * page is in the entry script; every other page is a chunk loaded when it is
 * first opened (parts/lazy), and the chart library with the signal page.
 */
import { render, type ComponentChildren } from 'preact';
import { useErrorBoundary } from 'preact/hooks';
import { Lazy } from './parts/lazy';
import { SignalsPage } from './pages/signals';
import { BASE, interceptLinks, useRoute, type Page } from './router';
import './styles.css';

const NAV: { page: Page; label: string; href: string }[] = [
  { page: 'signals', label: 'Signals', href: `${BASE}/signals` },
  { page: 'record', label: 'Track record', href: `${BASE}/record` },
  { page: 'market', label: 'Market', href: `${BASE}/market` },
  { page: 'account', label: 'Account', href: `${BASE}/account` },
];

/** A page that throws while drawing shows what happened and a way on, never a blank page. */
function Boundary({ children, page }: { children: ComponentChildren; page: string }) {
  const [error, reset] = useErrorBoundary();
  if (!error) return <>{children}</>;
  return (
    <section class="problem" role="alert">
      <h1>This page failed to draw</h1>
      <p>{String((error as Error)?.message ?? error)}</p>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>{' '}
        or go to <a href={`${BASE}/signals`}>Signals</a>. (Page: {page}.)
      </p>
    </section>
  );
}

function Frame() {
  const route = useRoute();
  const current = route.page === 'signal' ? 'signals' : route.page;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={`${BASE}/signals`}>
          Breakline
        </a>
        <nav aria-label="Pages">
          <ul>
            {NAV.map((item) => (
              <li key={item.page}>
                <a href={item.href} aria-current={current === item.page ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <a class="docs" href="/docs">
          API docs
        </a>
      </header>
      <main id="main" tabIndex={-1}>
        <Boundary page={route.page} key={route.page}>
        {route.page === 'signals' && <SignalsPage search={route.search} />}
        {route.page === 'signal' && <Lazy load={() => import('./pages/signal').then((m) => m.SignalPage)} props={{ id: route.id! }} />}
        {route.page === 'record' && <Lazy load={() => import('./pages/record').then((m) => m.RecordPage)} props={{ search: route.search }} />}
        {route.page === 'market' && <Lazy load={() => import('./pages/market').then((m) => m.MarketPage)} props={{}} />}
        {route.page === 'account' && <Lazy load={() => import('./pages/account').then((m) => m.AccountPage)} props={{ search: route.search }} />}
        {route.page === 'missing' && (
          <section>
            <h1>No such page</h1>
            <p>
              The console has <a href={`${BASE}/signals`}>Signals</a>, <a href={`${BASE}/record`}>Track record</a>, <a href={`${BASE}/market`}>Market</a> and{' '}
              <a href={`${BASE}/account`}>Account</a>.
            </p>
          </section>
        )}
        </Boundary>
      </main>
    </>
  );
}

const root = document.getElementById('app')!;
// The page's "Loading the console…" goes rather than being reused by Preact's render (which would move it below the
// frame's header: a layout shift, scored by Lighthouse as CLS).
root.replaceChildren();
interceptLinks(root);
render(<Frame />, root);
