/**
 * @module console/app/parts/use-action
 * `useAction()`: runs one write (a POST, a DELETE) at a time for a form or a
 * button, with its problem kept for display and a `done` callback (reload
 * the list it changed).
 *
 * @example
 * const action = useAction();
 * <form onSubmit={(e) => { e.preventDefault(); action.run(() => api('/api/watchlists', { method: 'POST', body }), reload); }}>
 */
import { useState } from 'preact/hooks';

export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async <T>(work: () => Promise<T>, done?: (value: T) => void): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      done?.(await work());
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  };
  /** Runs `work` on a submitted form's fields; once it succeeds the form is cleared and `done` gets the answer. */
  const submit = <T>(event: Event, work: (fields: Record<string, string>) => Promise<T>, done?: (value: T) => void): Promise<void> => {
    const form = event.currentTarget as HTMLFormElement;
    const fields = fieldsOf(event);
    return run(
      () => work(fields),
      (value) => {
        form.reset();
        done?.(value);
      },
    );
  };
  return { busy, error, run, submit, clear: () => setError(undefined) };
}

/** The named fields of a submitted form as strings. */
export function fieldsOf(event: Event): Record<string, string> {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  return Object.fromEntries([...new FormData(form).entries()].map(([key, value]) => [key, String(value).trim()]));
}

/** `"nvda, amd  msft"` → `['NVDA', 'AMD', 'MSFT']`. */
export const symbolList = (text: string | undefined): string[] => (text ?? '').split(/[\s,]+/).filter(Boolean).map((s) => s.toUpperCase());
