/**
 * @module console/app/pages/record-verify
 * The ledger's verification status: the published checkpoints
 * (`/api/transparency/checkpoints`) at once, and a full check of both chains
 * (`/api/transparency/verify`: every hash recomputed, a costly request with a
 * quota of its own) when the person asks for it.
 */
import { useState } from 'preact/hooks';
import { api } from '../api';
import { count, dateTime } from '../format';
import { Pending, Problem } from '../parts/problem';
import { useApi } from '../parts/use-api';

interface ChainReport {
  ok: boolean;
  count: number;
  head: { seq: number; hash: string };
  firstBadSeq: number | null;
  reason: string | null;
  scope: string;
  verifiedAt: string;
}

interface VerifyAnswer {
  ok: boolean;
  durationMs: number;
  chains: { live: ChainReport; replay: ChainReport };
}

function Chain({ name, report }: { name: string; report: ChainReport }) {
  return (
    <li data-chain={name} data-ok={String(report.ok)}>
      <strong>{name}</strong>: {report.ok ? 'holds' : `BROKEN at #${report.firstBadSeq} (${report.reason})`} — {count(report.count)} records, head #{report.head.seq} {report.head.hash.slice(0, 12)}…, {report.scope} check of{' '}
      {dateTime(report.verifiedAt)}
    </li>
  );
}

export function Verification() {
  const checkpoints = useApi<{ count: number; checkpoints: { seq: number; headHash: string; createdAt: string }[] }>('/api/transparency/checkpoints');
  const [result, setResult] = useState<VerifyAnswer>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>();
  const verify = () => {
    setRunning(true);
    setError(undefined);
    api<VerifyAnswer>('/api/transparency/verify').then(setResult, setError).finally(() => setRunning(false));
  };
  const latest = checkpoints.data?.checkpoints.at(-1);
  return (
    <div class="card">
      {checkpoints.data ? (
        <p>
          {checkpoints.data.count} checkpoints published
          {latest && (
            <>
              ; the latest at record #{latest.seq} ({latest.headHash.slice(0, 12)}…), {dateTime(latest.createdAt)}
            </>
          )}
          .
        </p>
      ) : (
        <Pending what="the checkpoints" error={checkpoints.error} retry={checkpoints.reload} />
      )}
      <button type="button" onClick={verify} disabled={running}>
        {running ? 'Verifying…' : 'Verify both chains now'}
      </button>
      <span class="muted"> Recomputes every hash of the live and replay chains.</span>
      {error !== undefined && <Problem error={error} retry={verify} />}
      {result && (
        <ul aria-live="polite" data-verified={String(result.ok)}>
          <Chain name="live ledger" report={result.chains.live} />
          <Chain name="replay ledger" report={result.chains.replay} />
          <li class="muted">Took {result.durationMs} ms.</li>
        </ul>
      )}
    </div>
  );
}
