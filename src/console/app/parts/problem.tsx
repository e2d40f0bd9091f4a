/**
 * @module console/app/parts/problem
 * How the console shows a problem: a titled notice with the server's words,
 * a countdown when it retries by itself, and a button to try now. Announced
 * to screen readers (`role="alert"`). Never a blank page.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, describe } from '../api';
import { signOut } from '../session';

export function Problem({ error, retry }: { error: unknown; retry?: () => void }) {
  const { title, detail, retryable, retryAfter } = describe(error);
  const [left, setLeft] = useState(retryAfter);
  useEffect(() => {
    setLeft(retryAfter);
    if (retryAfter === undefined) return;
    const tick = setInterval(() => setLeft((n) => (n === undefined || n <= 1 ? n : n - 1)), 1000);
    return () => clearInterval(tick);
  }, [error]);
  return (
    <div class="problem" role="alert">
      <strong>{title}.</strong> {detail}
      {retryable && left !== undefined && <span class="muted"> Trying again in {Math.max(1, Math.ceil(left))} s.</span>}
      {error instanceof ApiError && error.kind === 'unauthorized' && (
        <button
          type="button"
          class="link"
          onClick={() => {
            signOut();
            location.reload();
          }}
        >
          Forget this session
        </button>
      )}
      {retryable && retry && (
        <button type="button" class="link" onClick={retry}>
          Try now
        </button>
      )}
    </div>
  );
}

/** Shows the children once `data` is there; the problem or a loading line before. */
export function Pending({ what, error, retry }: { what: string; error: unknown; retry?: () => void }) {
  if (error) return <Problem error={error} retry={retry} />;
  return (
    <p class="muted" aria-live="polite">
      Loading {what}…
    </p>
  );
}
