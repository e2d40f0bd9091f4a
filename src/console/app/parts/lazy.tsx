/**
 * @module console/app/parts/lazy
 * A page loaded when it is first opened: `load` imports its chunk (Bun.build
 * splits each dynamic import into one), then the page renders with `props`.
 * A chunk that cannot be loaded (the server was upgraded, the network is
 * gone) is said so, with a retry.
 */
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Problem } from './problem';


export function Lazy<P>({ load, props }: { load: () => Promise<FunctionComponent<P>>; props: P }) {
  const key = load.toString();
  const [Page, setPage] = useState<FunctionComponent<P> | undefined>();
  const [error, setError] = useState<unknown>();
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    setError(undefined);
    load().then((component) => setPage(() => component), setError);
  }, [key, attempt]);
  if (error) return <Problem error={error} retry={() => setAttempt((n) => n + 1)} />;
  if (!Page) return <p class="muted">Loading…</p>;
  return <Page {...(props as P & preact.JSX.IntrinsicAttributes)} />;
}
