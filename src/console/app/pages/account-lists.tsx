/**
 * @module console/app/pages/account-lists
 * Account tabs over your watch settings: watchlists (`/api/watchlists`, each
 * symbol with its newest signal), alert rules (`/api/alerts/v2`, in-app
 * channel from here; webhooks through the API) and notifications
 * (`/api/notifications`).
 */
import { api } from '../api';
import { dateTime, words } from '../format';
import { Pending, Problem } from '../parts/problem';
import { fieldsOf, symbolList, useAction } from '../parts/use-action';
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
  const create = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { name, symbols } = fieldsOf(event);
    action.run(() => api('/api/watchlists', { method: 'POST', body: { name, symbols: symbolList(symbols) } }), () => {
      form.reset();
      list.reload();
    });
  };
  return (
    <section aria-labelledby="watchlists-title">
      <h2 id="watchlists-title">Watchlists</h2>
      <form class="stack" onSubmit={create} aria-label="New watchlist">
        <label>
          Name
          <input name="name" required maxLength={100} />
        </label>
        <label>
          Symbols (comma or space separated)
          <input name="symbols" placeholder="NVDA, AMD, AVGO" />
        </label>
        <button type="submit" class="primary" disabled={action.busy}>
          Create watchlist
        </button>
      </form>
      {action.error !== undefined && <Problem error={action.error} />}
      {!list.data ? (
        <Pending what="your watchlists" error={list.error} retry={list.reload} />
      ) : list.data.items.length === 0 ? (
        <p class="muted">No watchlist yet.</p>
      ) : (
        <div class="cards">
          {list.data.items.map((w) => (
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
  const create = (event: Event) => {
    const form = event.currentTarget as HTMLFormElement;
    const { name, symbols, minBand, timeframe } = fieldsOf(event);
    action.run(() => api('/api/alerts/v2', { method: 'POST', body: { name, symbols: symbolList(symbols), minBand, timeframe, channels: { inApp: true } } }), () => {
      form.reset();
      list.reload();
    });
  };
  return (
    <section aria-labelledby="alerts-title">
      <h2 id="alerts-title">Alert rules</h2>
      <form class="stack" onSubmit={create} aria-label="New alert rule">
        <label>
          Name
          <input name="name" required maxLength={100} />
        </label>
        <label>
          Symbols
          <input name="symbols" required placeholder="AAPL MSFT" />
        </label>
        <label>
          Lowest band
          <select name="minBand">
            {SCORE_BANDS.map((b) => (
              <option key={b} value={b} selected={b === 'strong'}>
                {b}
              </option>
            ))}
          </select>
        </label>
        <label>
          Timeframe
          <select name="timeframe">
            {TIMEFRAMES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary" disabled={action.busy}>
          Create rule (in-app)
        </button>
      </form>
      {action.error !== undefined && <Problem error={action.error} />}
      {!list.data ? (
        <Pending what="your alert rules" error={list.error} retry={list.reload} />
      ) : list.data.items.length === 0 ? (
        <p class="muted">No alert rule yet.</p>
      ) : (
        <ul>
          {list.data.items.map((rule) => (
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
