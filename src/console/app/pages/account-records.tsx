/**
 * @module console/app/pages/account-records
 * Account tabs over what you keep: the trade journal (`/api/journal/entries`
 * and its summary), API keys (`/api/keys`: a new key is shown once, here,
 * and never again) and exports (`/api/exports`: made in the background,
 * downloaded when done).
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { count, dateTime, percent, price, r } from '../format';
import { ActionForm, Field, Listed } from '../parts/form';
import { fieldsOf, useAction } from '../parts/use-action';
import { useApi } from '../parts/use-api';

interface Entry {
  id: string;
  symbol: string;
  side: string;
  entryPrice: number;
  entryAt: string;
  exitPrice: number | null;
  size: number;
  status: string;
  pnl: number | null;
  rMultiple: number | null;
  holdingDays: number | null;
}

interface JournalSummary {
  entries: number;
  closed: number;
  winRate: number | null;
  pnl: { total: number; expectancy: number | null };
}

export function Journal() {
  const list = useApi<{ items: Entry[] }>('/api/journal/entries?limit=100');
  const summary = useApi<JournalSummary>(list.data ? '/api/journal/summary' : null);
  const action = useAction();
  const create = (event: Event) =>
    action.submit(
      event,
      (f) => {
        const body: Record<string, unknown> = { symbol: f.symbol, side: f.side, entryPrice: Number(f.entryPrice), entryAt: new Date(f.entryAt!).toISOString(), size: Number(f.size) };
        if (f.exitPrice) Object.assign(body, { exitPrice: Number(f.exitPrice), exitAt: new Date(f.exitAt || Date.now()).toISOString() });
        return api('/api/journal/entries', { method: 'POST', body });
      },
      list.reload,
    );
  return (
    <section aria-labelledby="journal-title">
      <h2 id="journal-title">Journal</h2>
      <ActionForm label="New journal entry" submit="Add entry" action={action} onSubmit={create}>
        <Field label="Symbol">
          <input name="symbol" required size={8} />
        </Field>
        <Field label="Side">
          <select name="side">
            <option value="long">long</option>
            <option value="short">short</option>
          </select>
        </Field>
        <Field label="Entry price">
          <input name="entryPrice" type="number" step="any" min="0" required />
        </Field>
        <Field label="Entered">
          <input name="entryAt" type="datetime-local" required />
        </Field>
        <Field label="Size">
          <input name="size" type="number" step="any" min="0" required />
        </Field>
        <Field label="Exit price">
          <input name="exitPrice" type="number" step="any" min="0" />
        </Field>
        <Field label="Exited">
          <input name="exitAt" type="datetime-local" />
        </Field>
      </ActionForm>
      {summary.data && (
        <p>
          {summary.data.entries} entries, {summary.data.closed} closed · win rate {percent(summary.data.winRate)} · P&amp;L {price(summary.data.pnl.total)} · expectancy {price(summary.data.pnl.expectancy)}
        </p>
      )}
      <Listed items={list.data?.items} error={list.error} retry={list.reload} what="your journal" empty="No entry yet.">
        {(items) => (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Journal entries">
          <table>
            <thead>
              <tr>
                <th scope="col">Symbol</th>
                <th scope="col">Side</th>
                <th scope="col">Entered</th>
                <th scope="col" class="num">Entry</th>
                <th scope="col" class="num">Exit</th>
                <th scope="col" class="num">Size</th>
                <th scope="col" class="num">P&amp;L</th>
                <th scope="col" class="num">R</th>
                <th scope="col" class="num">Days</th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id}>
                  <th scope="row">{e.symbol}</th>
                  <td>{e.side}</td>
                  <td>{dateTime(e.entryAt)}</td>
                  <td class="num">{price(e.entryPrice)}</td>
                  <td class="num">{price(e.exitPrice)}</td>
                  <td class="num">{count(e.size)}</td>
                  <td class="num">{price(e.pnl)}</td>
                  <td class="num">{r(e.rMultiple)}</td>
                  <td class="num">{e.holdingDays ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        )}
      </Listed>
    </section>
  );
}

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  tier: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function Keys() {
  const list = useApi<{ keys: ApiKey[] }>('/api/keys');
  const action = useAction();
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const create = (event: Event) =>
    action.submit(event, ({ name }) => api<ApiKey & { key: string }>('/api/keys', { method: 'POST', body: { name } }), (answer) => {
      setCreated({ name: answer.name, key: answer.key });
      list.reload();
    });
  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <ActionForm label="New API key" submit="Create key" action={action} onSubmit={create}>
        <Field label="What it is for">
          <input name="name" required maxLength={100} placeholder="trading bot" />
        </Field>
      </ActionForm>
      {created && (
        <div class="notice" role="status">
          <p>
            <strong>Your new key “{created.name}”.</strong> Copy it now: it is shown this once and cannot be read again.
          </p>
          <p class="secret" data-new-key>
            {created.key}
          </p>
          <p class="muted">Use it as <code>Authorization: Bearer {created.key.slice(0, 11)}…</code></p>
          <button type="button" onClick={() => setCreated(undefined)}>
            I have copied it
          </button>
        </div>
      )}
      <Listed items={list.data?.keys} error={list.error} retry={list.reload} what="your keys" empty="No key yet.">
        {(keys) => (
        <ul>
          {keys.map((k) => (
            <li key={k.id} data-key-prefix={k.prefix}>
              <strong>{k.name}</strong> <code>{k.prefix}…</code> · {k.tier} · created {dateTime(k.createdAt)} · last used {dateTime(k.lastUsedAt)}{' '}
              {k.revokedAt ? (
                <span class="muted">revoked {dateTime(k.revokedAt)}</span>
              ) : (
                <button type="button" onClick={() => action.run(() => api(`/api/keys/${k.id}`, { method: 'DELETE' }), list.reload)}>
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
        )}
      </Listed>
    </section>
  );
}

interface ExportJob {
  id: string;
  dataset: string;
  format: string;
  status: string;
  rowCount: number | null;
  error: string | null;
  createdAt: string;
  expiresAt: string | null;
  downloadUrl: string | null;
}

export function Exports() {
  const list = useApi<{ items: ExportJob[] }>('/api/exports?limit=50');
  const action = useAction();
  const create = (event: Event) => {
    const { dataset, format } = fieldsOf(event);
    action.run(() => api('/api/exports', { method: 'POST', body: { dataset, format } }), list.reload);
  };
  return (
    <section aria-labelledby="exports-title">
      <h2 id="exports-title">Exports</h2>
      <ActionForm
        label="New export"
        submit="Export"
        action={action}
        onSubmit={create}
        after={
          <button type="button" onClick={list.reload}>
            Refresh
          </button>
        }
      >
        <Field label="What">
          <select name="dataset">
            <option value="ledger">the ledger</option>
            <option value="journal">your journal</option>
          </select>
        </Field>
        <Field label="Format">
          <select name="format">
            <option value="csv">CSV</option>
            <option value="json">JSON</option>
          </select>
        </Field>
      </ActionForm>
      <Listed items={list.data?.items} error={list.error} retry={list.reload} what="your exports" empty="No export yet (exports need the pro tier).">
        {(items) => (
        <ul>
          {items.map((x) => (
            <li key={x.id}>
              {x.dataset} as {x.format} · {x.status}
              {x.rowCount !== null && ` · ${count(x.rowCount)} rows`} · {dateTime(x.createdAt)}
              {x.error && <span class="muted"> · {x.error}</span>}{' '}
              {x.downloadUrl && (
                <a href={x.downloadUrl} download>
                  Download
                </a>
              )}
            </li>
          ))}
        </ul>
        )}
      </Listed>
    </section>
  );
}
