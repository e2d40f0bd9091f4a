/**
 * @module console/app/pages/account-lists
 * Account tabs over your watch settings: watchlists (`/api/watchlists`, each
 * symbol with its newest signal), alert rules (`/api/alerts/v2`, in-app
 * channel from here; webhooks through the API) and notifications
 * (`/api/notifications`).
 */
import { api } from '../api';
import { dateTime, words } from '../format';
import { ActionForm, Choices, Field, Listed } from '../parts/form';
import { Pending, Problem } from '../parts/problem';
import { symbolList, useAction } from '../parts/use-action';
import { useApi } from '../parts/use-api';
import { signalPath } from '../router';
import { SCORE_BANDS, TIMEFRAMES } from '../types';

interface Watchlist {
  id: string;
  name: string;
  symbols: { symbol: string; latestSignal: { id: string; patternType: string; scoreBand: string; breakoutState: string; timeframe: string } | null }[];
}

export function Watchlists() {
  const list = useApi<{ items: Watchlist[] }>('/api/watchlists?limit=100');
  const action = useAction();
  const create = (event: Event) => action.submit(event, ({ name, symbols }) => api('/api/watchlists', { method: 'POST', body: { name, symbols: symbolList(symbols) } }), list.reload);
  return (
    <section aria-labelledby="watchlists-title">
      <h2 id="watchlists-title">Watchlists</h2>
      <ActionForm label="New watchlist" submit="Create watchlist" action={action} onSubmit={create}>
        <Field label="Name">
          <input name="name" required maxLength={100} />
        </Field>
        <Field label="Symbols (comma or space separated)">
          <input name="symbols" placeholder="NVDA, AMD, AVGO" />
        </Field>
      </ActionForm>
      <Listed items={list.data?.items} error={list.error} retry={list.reload} what="your watchlists" empty="No watchlist yet.">
        {(items) => (
        <div class="cards">
          {items.map((w) => (
            <div class="card" key={w.id} data-watchlist={w.name}>
              <h3>{w.name}</h3>
              <ul>
                {w.symbols.map((s) => (
                  <li key={s.symbol}>
                    <strong>{s.symbol}</strong>{' '}
                    {s.latestSignal ? (
                      <a href={signalPath(s.latestSignal.id, s.latestSignal.timeframe)}>
                        {words(s.latestSignal.patternType)} ({s.latestSignal.scoreBand}, {words(s.latestSignal.breakoutState)})
                      </a>
                    ) : (
                      <span class="muted">no signal</span>
                    )}
                  </li>
                ))}
              </ul>
              <button type="button" onClick={() => action.run(() => api(`/api/watchlists/${w.id}`, { method: 'DELETE' }), list.reload)}>
                Delete {w.name}
              </button>
            </div>
          ))}
        </div>
        )}
      </Listed>
    </section>
  );
}

interface AlertRule {
  id: string;
  name: string;
  symbols: string[] | null;
  watchlistId: string | null;
  minBand: string | null;
  timeframe: string;
  states: string[];
  enabled: boolean;
  channels: { inApp: boolean; webhook: { url: string } | null };
}

export function AlertRules() {
  const list = useApi<{ items: AlertRule[] }>('/api/alerts/v2?limit=100');
  const action = useAction();
  const create = (event: Event) =>
    action.submit(event, ({ name, symbols, minBand, timeframe }) => api('/api/alerts/v2', { method: 'POST', body: { name, symbols: symbolList(symbols), minBand, timeframe, channels: { inApp: true } } }), list.reload);
  return (
    <section aria-labelledby="alerts-title">
      <h2 id="alerts-title">Alert rules</h2>
      <ActionForm label="New alert rule" submit="Create rule (in-app)" action={action} onSubmit={create}>
        <Field label="Name">
          <input name="name" required maxLength={100} />
        </Field>
        <Field label="Symbols">
          <input name="symbols" required placeholder="AAPL MSFT" />
        </Field>
        <Field label="Lowest band">
          <select name="minBand">
            <Choices values={SCORE_BANDS} selected="strong" />
          </select>
        </Field>
        <Field label="Timeframe">
          <select name="timeframe">
            <Choices values={TIMEFRAMES} />
          </select>
        </Field>
      </ActionForm>
      <Listed items={list.data?.items} error={list.error} retry={list.reload} what="your alert rules" empty="No alert rule yet.">
        {(items) => (
        <ul>
          {items.map((rule) => (
            <li key={rule.id}>
              <strong>{rule.name}</strong>: {rule.symbols?.join(', ') ?? `watchlist ${rule.watchlistId}`} · {rule.minBand ?? 'any'} or better · {rule.timeframe} · {rule.states.map(words).join('/')} ·{' '}
              {rule.channels.webhook ? 'in-app and webhook' : 'in-app'} {rule.enabled ? '' : '(paused)'}{' '}
              <button type="button" onClick={() => action.run(() => api(`/api/alerts/v2/${rule.id}`, { method: 'DELETE' }), list.reload)}>
                Delete
              </button>
            </li>
          ))}
        </ul>
        )}
      </Listed>
    </section>
  );
}

interface Notification {
  id: string;
  title: string;
  signalId: string;
  timeframe: string;
  readAt: string | null;
  createdAt: string;
}

export function Notifications() {
  const list = useApi<{ items: Notification[]; unreadCount: number }>('/api/notifications?limit=50');
  const action = useAction();
  return (
    <section aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      {action.error !== undefined && <Problem error={action.error} />}
      {!list.data ? (
        <Pending what="your notifications" error={list.error} retry={list.reload} />
      ) : (
        <>
          <p>
            {list.data.unreadCount} unread.{' '}
            <button type="button" disabled={list.data.unreadCount === 0 || action.busy} onClick={() => action.run(() => api('/api/notifications/read-all', { method: 'POST' }), list.reload)}>
              Mark all read
            </button>
          </p>
          {list.data.items.length === 0 ? (
            <p class="muted">Nothing yet: alert rules and watchlist events land here.</p>
          ) : (
            <ul>
              {list.data.items.map((n) => (
                <li key={n.id} class={n.readAt ? undefined : 'fresh'}>
                  {dateTime(n.createdAt)} · <a href={signalPath(n.signalId, n.timeframe)}>{n.title}</a>
                  {n.readAt ? '' : ' (unread)'}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
