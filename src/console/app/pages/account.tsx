/**
 * @module console/app/pages/account
 * Your account: signing in (local mode: paste a token from `breakline token
 * mint`; with an identity provider, its own sign-in sets the cookie), then
 * one tab per feature: watchlists, alert rules, notifications, journal, API
 * keys, exports and the walk-forward backtest. Nothing here asks a protected
 * route before a session exists, so a signed-out visit makes no failing
 * request.
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { dateTime } from '../format';
import { ActionForm, Field } from '../parts/form';
import { useAction } from '../parts/use-action';
import { BASE } from '../router';
import { currentSession, signIn, signOut, type SessionInfo } from '../session';
import { AlertRules, Notifications, Watchlists } from './account-lists';
import { Exports, Journal, Keys } from './account-records';
import { Backtest } from './account-backtest';

const TABS = [
  ['watchlists', 'Watchlists'],
  ['alerts', 'Alert rules'],
  ['notifications', 'Notifications'],
  ['journal', 'Journal'],
  ['keys', 'API keys'],
  ['exports', 'Exports'],
  ['backtest', 'Backtest'],
] as const;

function SignIn({ onSignedIn }: { onSignedIn: (session: SessionInfo) => void }) {
  const [token, setToken] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const session = signIn(token);
      try {
        await api('/api/keys'); // the server's word on the token (a protected read)
      } catch (problem) {
        signOut();
        throw problem;
      }
      return session;
    }, onSignedIn);
  };
  return (
    <div class="card">
      <h2>Sign in</h2>
      <p>
        With an identity provider configured, sign in through your application: it sets the <code>__session</code> cookie this console uses. In local mode (no provider), mint a session
        token on the server's machine and paste it here:
      </p>
      <pre class="secret">breakline token mint --user alice --tier pro --ttl 8h</pre>
      <p class="muted">
        (from a checkout: <code>npx bun src/index.ts token mint …</code>). The token is kept as a cookie for its lifetime, sent only to this site.
      </p>
      <ActionForm label="Sign in" submit="Sign in" action={action} onSubmit={submit}>
        <Field label="Session token">
          <textarea name="token" rows={3} cols={60} required value={token} onInput={(e) => setToken((e.target as HTMLTextAreaElement).value)} />
        </Field>
      </ActionForm>
    </div>
  );
}

export function AccountPage({ search }: { search: URLSearchParams }) {
  const [session, setSession] = useState(() => currentSession());
  const tab = search.get('tab') ?? 'watchlists';
  if (!session) {
    return (
      <section aria-labelledby="account-title">
        <h1 id="account-title">Your account</h1>
        <SignIn onSignedIn={setSession} />
      </section>
    );
  }
  return (
    <section aria-labelledby="account-title">
      <div class="heading">
        <h1 id="account-title">Your account</h1>
        <p data-user={session.userId}>
          Signed in as <strong>{session.userId}</strong>
          {session.tier ? ` (${session.tier})` : ''}
          {session.expiresAt ? `, until ${dateTime(new Date(session.expiresAt).toISOString())}` : ''} ·{' '}
          <button
            type="button"
            class="link"
            onClick={() => {
              signOut();
              setSession(undefined);
            }}
          >
            Sign out
          </button>
        </p>
      </div>
      <ul class="tabs" aria-label="Account sections">
        {TABS.map(([key, label]) => (
          <li key={key}>
            <a href={`${BASE}/account?tab=${key}`} aria-current={tab === key ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
      {tab === 'watchlists' && <Watchlists />}
      {tab === 'alerts' && <AlertRules />}
      {tab === 'notifications' && <Notifications />}
      {tab === 'journal' && <Journal />}
      {tab === 'keys' && <Keys />}
      {tab === 'exports' && <Exports />}
      {tab === 'backtest' && <Backtest />}
    </section>
  );
}
