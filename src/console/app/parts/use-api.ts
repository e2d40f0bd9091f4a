/**
 * @module console/app/parts/use-api
 * `useApi(path)`: the data of one GET, loaded when the path changes, with its
 * problem (an `ApiError`) and `reload`. A problem worth retrying (offline, not
 * ready, rate-limited) is retried by itself after the wait the server named;
 * a `null` path loads nothing (a view that waits for something first).
 *
 * @example
 * const scorecard = useApi<Scorecard>('/api/scorecard?source=live');
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, describe } from '../api';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useApi<T>(path: string | null): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean; path: string | null }>({ loading: path !== null, path });
  const [attempt, setAttempt] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true, path }));
    api<T>(path, { signal: controller.signal }).then(
      (data) => setState({ data, loading: false, path }),
      (error: unknown) => {
        if ((error as Error).name === 'AbortError') return;
        setState({ error, loading: false, path });
        const { retryable, retryAfter } = describe(error);
        if (retryable && retryAfter !== undefined) timer.current = setTimeout(() => setAttempt((n) => n + 1), retryAfter * 1000);
      },
    );
    return () => {
      controller.abort();
      clearTimeout(timer.current);
    };
  }, [path, attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  // Data of an earlier path is not shown as this one's.
  const current = state.path === path;
  return { data: current ? state.data : undefined, error: current ? state.error : undefined, loading: state.loading || !current, reload };
}
