/**
 * @module console/app/pages/signals
 * Signals: the ranked list of `/api/breakouts` for a timeframe (read through
 * its cursors: signals-model, the pages after the first only once a view needs them), filtered by band, pattern, direction, state and a
 * symbol search, sortable by column, shown 50 rows at a time. New signals and
 * state changes arrive over `/api/stream` and are marked in the list (and
 * announced to screen readers) without a reload. The choices live in the
 * query string, so a view can be linked.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Choices } from '../parts/form';
import { Problem } from '../parts/problem';
import { setSearch, signalPath } from '../router';
import { signalsTimeframe } from '../routes';
import { StreamLine, useStream } from '../stream';
import { dateTime, pct, price, words } from '../format';
import { BREAKOUT_STATES, DIRECTIONS, PATTERN_TYPES, SCORE_BANDS, TIMEFRAMES, type BreakoutsPage, type Signal, type StateChange } from '../types';
import { needsWholeList, readFirstPage, readRest, ROWS_PER_PAGE, view, withNew, withStateChange, type Filters, type Sort, type SortKey } from './signals-model';

const COLUMNS: { key: SortKey | null; label: string; numeric?: boolean }[] = [
  { key: 'rank', label: '#', numeric: true },
  { key: 'symbol', label: 'Symbol' },
  { key: null, label: 'Band' },
  { key: null, label: 'Pattern' },
  { key: 'score', label: 'Score', numeric: true },
  { key: 'confidence', label: 'Confidence', numeric: true },
  { key: 'state', label: 'State' },
  { key: null, label: 'Trigger', numeric: true },
  { key: null, label: 'Target', numeric: true },
  { key: null, label: 'Stop', numeric: true },
  { key: 'distance', label: 'To trigger', numeric: true },
];

/** How long a row stays marked after a live change. */
const FRESH_MS = 15_000;

function Select({ label, name, value, options }: { label: string; name: string; value: string; options: readonly string[] }) {
  return (
    <label>
      {label}
      <select name={name} value={value} onChange={(e) => setSearch({ [name]: (e.target as HTMLSelectElement).value, page: undefined })}>
        <option value="">any</option>
        <Choices values={options} text={words} />
      </select>
    </label>
  );
}

export function SignalsPage({ search }: { search: URLSearchParams }) {
  const timeframe = signalsTimeframe(search);
  const filters: Filters = { search: search.get('q') ?? '', band: search.get('band') ?? '', pattern: search.get('pattern') ?? '', direction: search.get('direction') ?? '', state: search.get('state') ?? '' };
  const sort: Sort = { key: (search.get('sort') as SortKey) ?? 'rank', descending: search.get('dir') === 'desc' };
  const page = Math.max(0, Number(search.get('page') ?? 0) || 0);

  const [signals, setSignals] = useState<Signal[] | undefined>();
  /** The first page (the scan's facts, the list's size) and the cursor to the rest, null once all is read. */
  const [meta, setMeta] = useState<{ first: BreakoutsPage; rest: string | null } | undefined>();
  const [error, setError] = useState<unknown>();
  const [attempt, setAttempt] = useState(0);
  const [fresh, setFresh] = useState<Map<string, string>>(new Map());
  const [announcement, setAnnouncement] = useState('');
  const whole = needsWholeList(filters, sort, page);

  useEffect(() => {
    const controller = new AbortController();
    setError(undefined);
    readFirstPage(timeframe, controller.signal).then(
      (first) => {
        setSignals(first.items);
        setMeta({ first, rest: first.pagination.hasMore ? first.pagination.nextCursor : null });
      },
      (problem: unknown) => (problem as Error).name !== 'AbortError' && setError(problem),
    );
    return () => controller.abort();
  }, [timeframe, attempt]);

  // The rest of the list, once a view needs it (a filter, a sort, a later page).
  const rest = meta?.rest ?? null;
  useEffect(() => {
    if (!whole || rest === null) return;
    const controller = new AbortController();
    readRest(
      timeframe,
      rest,
      (items, done) => {
        // A signal the stream brought in the meantime is in the list already.
        setSignals((list = []) => {
          const known = new Set(list.map((s) => s.id));
          return [...list, ...items.filter((s) => !known.has(s.id))];
        });
        if (done) setMeta((old) => old && { ...old, rest: null });
      },
      controller.signal,
    ).catch((problem: unknown) => (problem as Error).name !== 'AbortError' && setError(problem));
    return () => controller.abort();
  }, [whole, rest]);

  const mark = (id: string, what: string) => {
    setFresh((old) => new Map(old).set(id, what));
    setTimeout(() => setFresh((old) => {
      const next = new Map(old);
      next.delete(id);
      return next;
    }), FRESH_MS);
  };

  const status = useStream(
    { channels: ['breakouts.new', 'breakouts.state_change'] },
    (event, data) => {
      if (event === 'breakouts.new') {
        const signal = data.signal as Signal;
        if (signal.timeframe !== timeframe) return;
        setSignals((list) => withNew(list ?? [], signal));
        mark(signal.id, 'new');
        setAnnouncement(`New signal: ${signal.symbol} ${words(signal.patternType)}, ${signal.scoreBand}, score ${signal.finalScore}.`);
      } else if (event === 'breakouts.state_change') {
        const change = data as unknown as StateChange;
        setSignals((list) => (list ? withStateChange(list, change) : list));
        mark(change.signalId, words(change.to));
        setAnnouncement(`${change.symbol} is now ${words(change.to)} at ${price(change.price)}.`);
      }
    },
    () => setAttempt((n) => n + 1),
  );

  const rows = useMemo(() => (signals ? view(signals, filters, sort) : []), [signals, search.toString()]);
  const complete = meta?.rest === null;
  // Until the whole list is read, the unfiltered view counts the list as the API does.
  const total = complete || !meta ? (signals?.length ?? 0) : Math.max(meta.first.pagination.total ?? 0, signals?.length ?? 0);
  const matching = whole ? rows.length : total;
  const pages = Math.max(1, Math.ceil(matching / ROWS_PER_PAGE));
  const shown = rows.slice(Math.min(page, pages - 1) * ROWS_PER_PAGE, (Math.min(page, pages - 1) + 1) * ROWS_PER_PAGE);
  const rankOf = useMemo(() => new Map((signals ?? []).map((s, i) => [s.id, i + 1])), [signals]);

  const sortBy = (key: SortKey) => {
    const descending = sort.key === key ? !sort.descending : key !== 'symbol' && key !== 'rank';
    setSearch({ sort: key === 'rank' && !descending ? undefined : key, dir: descending ? 'desc' : undefined, page: undefined });
  };

  return (
    <section aria-labelledby="signals-title">
      <div class="heading">
        <h1 id="signals-title">Signals</h1>
        <StreamLine status={status} />
      </div>
      <form class="filters" role="search" aria-label="Filter signals" onSubmit={(e) => e.preventDefault()}>
        <label>
          Timeframe
          <select name="timeframe" value={timeframe} onChange={(e) => setSearch({ timeframe: (e.target as HTMLSelectElement).value === 'daily' ? undefined : (e.target as HTMLSelectElement).value, page: undefined })}>
            <Choices values={TIMEFRAMES} />
          </select>
        </label>
        <label>
          Symbol
          <input type="search" name="q" value={filters.search} placeholder="e.g. NVDA" autoComplete="off" spellcheck={false} onInput={(e) => setSearch({ q: (e.target as HTMLInputElement).value, page: undefined })} />
        </label>
        <Select label="Band" name="band" value={filters.band} options={SCORE_BANDS} />
        <Select label="Pattern" name="pattern" value={filters.pattern} options={PATTERN_TYPES} />
        <Select label="Direction" name="direction" value={filters.direction} options={DIRECTIONS} />
        <Select label="State" name="state" value={filters.state} options={BREAKOUT_STATES} />
      </form>
      <p class="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {error !== undefined && <Problem error={error} retry={() => setAttempt((n) => n + 1)} />}
      {meta && (
        <p class="muted summary">
          {matching} of {total} signals{whole && !complete ? ' (reading the whole list…)' : ''} · scan of {dateTime(meta.first.latestPersistedRun?.finishedAt ?? meta.first.generatedAt)}
          {meta.first.regime ? ` · market ${words(meta.first.regime.regime)}` : ''}
        </p>
      )}
      {!signals && error === undefined && <p class="muted" aria-live="polite">Loading signals…</p>}
      {signals && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Ranked signals">
          <table class="signals" data-rows={rows.length}>
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c.label} scope="col" class={c.numeric ? 'num' : undefined} aria-sort={c.key && sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : undefined}>
                    {c.key ? (
                      <button type="button" class="sort" onClick={() => sortBy(c.key!)}>
                        {c.label}
                        <span aria-hidden="true">{sort.key === c.key ? (sort.descending ? ' ▾' : ' ▴') : ''}</span>
                      </button>
                    ) : (
                      c.label
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((s) => (
                <tr key={s.id} data-signal-id={s.id} class={fresh.has(s.id) ? 'fresh' : undefined}>
                  <td class="num">{rankOf.get(s.id)}</td>
                  <th scope="row">
                    <a href={signalPath(s.id, s.timeframe)}>{s.symbol}</a>
                    {fresh.has(s.id) && <span class="tag">{fresh.get(s.id)}</span>}
                  </th>
                  <td>
                    <span class={`band band-${s.scoreBand}`}>{s.scoreBand}</span>
                  </td>
                  <td>
                    {words(s.patternType)} <span class={`dir dir-${s.direction}`}>{s.direction}</span>
                  </td>
                  <td class="num">{s.finalScore.toFixed(1)}</td>
                  <td class="num">{(s.confidence * 100).toFixed(0)}%</td>
                  <td>{words(s.breakoutState)}</td>
                  <td class="num">{price(s.triggerPrice)}</td>
                  <td class="num">{price(s.target1)}</td>
                  <td class="num">{price(s.stopLoss)}</td>
                  <td class="num">{pct(s.distancePct)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 && <p class="muted">No signal matches these filters.</p>}
        </div>
      )}
      {pages > 1 && (
        <nav class="pager" aria-label="Pages of signals">
          <button type="button" disabled={page <= 0} onClick={() => setSearch({ page: page - 1 > 0 ? String(page - 1) : undefined })}>
            Previous
          </button>
          <span>
            Page {Math.min(page, pages - 1) + 1} of {pages}
          </span>
          <button type="button" disabled={page >= pages - 1} onClick={() => setSearch({ page: String(page + 1) })}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
