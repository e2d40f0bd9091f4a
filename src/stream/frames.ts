/**
 * @module stream/frames
 * Server-Sent Events frames (WHATWG HTML §9.2 "Server-sent events": fields
 * `id`, `event`, `data`, `retry`, a blank line ending each event, `:` starting
 * a comment). A frame is encoded to bytes once and the same `Uint8Array` is
 * queued to every subscriber that receives it. JSON never holds a raw line
 * break, so each payload is one `data:` line.
 *
 * @example
 * decodeText(encodeFrame({ id: '1-0', event: 'quote', data: { price: 1 } }));
 * // => 'id: 1-0\nevent: quote\ndata: {"price":1}\n\n'
 */

const encoder = new TextEncoder();

export interface FrameFields {
  id: string;
  event: string;
  data: unknown;
  /** Reconnection time in ms the client should use (sent in `hello`). */
  retry?: number;
}

export function encodeFrame({ id, event, data, retry }: FrameFields): Uint8Array {
  const head = retry === undefined ? '' : `retry: ${retry}\n`;
  return encoder.encode(`${head}id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** A stream's last frame when the server stops: a comment saying so and the delay to reconnect after (a `retry:` field alone dispatches no event). */
export const reconnectFrame = (retryMs: number): Uint8Array => encoder.encode(`: server stopping; reconnect with Last-Event-ID\nretry: ${retryMs}\n\n`);

/** The keep-alive comment (clients ignore it; proxies see traffic). */
export const PING_FRAME: Uint8Array = encoder.encode(': ping\n\n');

export function decodeText(frame: Uint8Array): string {
  return new TextDecoder().decode(frame);
}
