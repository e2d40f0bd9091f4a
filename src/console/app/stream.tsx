/**
 * @module console/app/stream
 * The live stream (`GET /api/stream`, Server-Sent Events) as the console uses
 * it: one EventSource per view, its events handed to the view, and a status a
 * person can read. A dropped connection is taken up again by the browser
 * with `Last-Event-ID` (the stream then replays what was missed); a refused
 * one (429, 503: the browser gives up on those) is opened again here after a
 * wait, naming the last event seen in `lastEventId`. A `reset` (the server
 * could not replay everything since that id) asks the view to reload.
 *
 * @example
 * const status = useStream({ channels: ['breakouts.new'] }, (event, data) => …, reload);
 */
import { useEffect, useRef, useState } from 'preact/hooks';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'refused';

export interface StreamStatus {
  state: StreamState;
  /** The id of the last event received (what a reconnection resumes after). */
  lastEventId?: string;
  /** A sentence for the status line. */
  message: string;
}

export type StreamHandler = (event: string, data: Record<string, unknown>, id: string) => void;

/** Event names the console reads (every other is ignored). */
const EVENTS = ['breakouts.new', 'breakouts.state_change', 'quote', 'alerts.dispatched', 'backtest.progress'] as const;

/** Wait before opening a refused stream again, when the server named none. */
const REFUSED_WAIT_MS = 3000;

export function streamUrl(channels: readonly string[], symbols: readonly string[], lastEventId?: string): string {
  const search = new URLSearchParams();
  if (channels.length) search.set('channels', channels.join(','));
  if (symbols.length) search.set('symbols', symbols.join(','));
  if (lastEventId) search.set('lastEventId', lastEventId);
  return `/api/stream?${search}`;
}

export function useStream(options: { channels: readonly string[]; symbols?: readonly string[]; enabled?: boolean }, onEvent: StreamHandler, onReset?: () => void): StreamStatus {
  const [status, setStatus] = useState<StreamStatus>({ state: 'connecting', message: 'Connecting to the live stream…' });
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const reset = useRef(onReset);
  reset.current = onReset;
  const key = `${options.channels.join(',')}|${(options.symbols ?? []).join(',')}`;
  useEffect(() => {
    if (options.enabled === false) return;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let last: string | undefined;
    let dropped = false;
    let closed = false;
    const open = () => {
      source = new EventSource(streamUrl(options.channels, options.symbols ?? [], last));
      source.addEventListener('open', () => {
        const resumed = dropped && last !== undefined;
        setStatus({ state: 'live', lastEventId: last, message: resumed ? `Live again: reconnected and resumed after event ${last}.` : 'Live.' });
        dropped = false;
      });
      source.addEventListener('error', () => {
        if (closed || !source) return;
        dropped = true;
        if (source.readyState === EventSource.CONNECTING) {
          setStatus({ state: 'reconnecting', lastEventId: last, message: `Connection lost; reconnecting${last ? ` to resume after event ${last}` : ''}…` });
          return;
        }
        // The server refused the stream (the browser does not retry that): open it again after a wait.
        source.close();
        setStatus({ state: 'refused', lastEventId: last, message: `The live stream is refused for now; trying again in ${REFUSED_WAIT_MS / 1000} s.` });
        retry = setTimeout(open, REFUSED_WAIT_MS);
      });
      source.addEventListener('hello', (event) => {
        last = (event as MessageEvent).lastEventId || last;
      });
      source.addEventListener('reset', () => {
        setStatus({ state: 'live', lastEventId: last, message: 'Live again; some events could not be replayed, so this view was reloaded.' });
        reset.current?.();
      });
      for (const name of EVENTS) {
        source.addEventListener(name, (event) => {
          const message = event as MessageEvent<string>;
          if (message.lastEventId) last = message.lastEventId;
          let data: Record<string, unknown>;
          try {
            data = JSON.parse(message.data) as Record<string, unknown>;
          } catch {
            return;
          }
          handler.current(name, data, message.lastEventId);
        });
      }
    };
    open();
    return () => {
      closed = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [key, options.enabled]);
  return status;
}

/** The status line of a view's stream (announced politely to screen readers). */
export function StreamLine({ status }: { status: StreamStatus }) {
  return (
    <p class={`stream stream-${status.state}`} role="status" aria-live="polite" data-stream-state={status.state}>
      <span class="dot" aria-hidden="true" /> {status.message}
    </p>
  );
}
