/**
 * A subscriber's frames of one tick reach its stream as one chunk
 * (stream/subscriber FrameBatch): one socket write per subscriber per tick.
 */
import { describe, expect, it } from 'bun:test';
import { decodeText, encodeFrame } from '../../src/stream/frames';
import { FrameBatch, Subscriber } from '../../src/stream/subscriber';

const frame = (n: number) => encodeFrame({ id: `1-${n}`, event: 'breakouts.state_change', data: { n } });

function subscriber(batch: FrameBatch, queueBytes = 65536) {
  const s = new Subscriber({ connectionId: 'sse_test', channels: new Set(), symbols: [], principal: null, key: 'ip:127.0.0.1', queueBytes, now: 0, batch });
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (s.controller = c) }, { highWaterMark: 0, size: (chunk) => chunk?.byteLength ?? 0 });
  return { s, reader: stream.getReader() };
}

describe('stream subscriber: one chunk per tick', () => {
  it('hands the frames of one tick over together, after the tick, counted as queued meanwhile', async () => {
    const batch = new FrameBatch();
    const { s, reader } = subscriber(batch);
    const frames = [frame(1), frame(2), frame(3)];
    for (const f of frames) s.send(f);
    const bytes = frames.reduce((n, f) => n + f.byteLength, 0);
    expect(s.queued).toBe(bytes); // waiting for the end of the tick, and counted
    const { value } = await reader.read();
    expect(decodeText(value!)).toBe(frames.map(decodeText).join(''));
    expect(s.queued).toBe(0);
    expect(s.peakQueued).toBe(bytes);
  });

  it('sends a lone frame as the shared bytes, and joins a run shared by several subscribers once', async () => {
    const batch = new FrameBatch();
    const a = subscriber(batch);
    const b = subscriber(batch);
    const c = subscriber(batch);
    const lone = frame(0);
    c.s.send(lone);
    const run = [frame(1), frame(2)];
    for (const f of run) {
      a.s.send(f);
      b.s.send(f);
    }
    const [fromA, fromB, fromC] = await Promise.all([a.reader.read(), b.reader.read(), c.reader.read()]);
    expect(fromC.value).toBe(lone);
    expect(fromA.value).toBe(fromB.value!); // the same bytes, joined once
    expect(decodeText(fromA.value!)).toBe(run.map(decodeText).join(''));
  });

  it('joins each subscriber its own run when runs differ, still once per distinct run, across ticks', async () => {
    const batch = new FrameBatch();
    const subs = [subscriber(batch), subscriber(batch), subscriber(batch), subscriber(batch)];
    const [f1, f2, f3] = [frame(1), frame(2), frame(3)];
    const runs = [[f1, f2], [f1, f3], [f1, f2], [f1, f2, f3]];
    for (let tick = 0; tick < 2; tick++) {
      for (const [k, run] of runs.entries()) for (const f of run) subs[k]!.s.send(f);
      const got = await Promise.all(subs.map((x) => x.reader.read()));
      for (const [k, run] of runs.entries()) expect(decodeText(got[k]!.value!)).toBe(run.map(decodeText).join(''));
      expect(got[2]!.value).toBe(got[0]!.value!); // [1,2] again, after [1,3]: the same joined bytes
      expect(got[1]!.value).not.toBe(got[0]!.value!);
    }
  });

  it('keeps tick order across ticks, and sends what a tick holds before ending the stream', async () => {
    const batch = new FrameBatch();
    const { s, reader } = subscriber(batch);
    s.send(frame(1));
    await Promise.resolve();
    await Promise.resolve();
    s.send(frame(2));
    s.send(frame(3));
    s.end();
    const seen: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) seen.push(decodeText(r.value));
    expect(seen).toEqual([decodeText(frame(1)), decodeText(frame(2)) + decodeText(frame(3))]);
  });

  it('discards what a dropped subscriber had waiting', async () => {
    const batch = new FrameBatch();
    const { s, reader } = subscriber(batch);
    s.send(frame(1));
    s.drop();
    expect(s.queued).toBe(0);
    expect(await reader.read().catch(() => 'errored')).toBe('errored');
  });

  it('knows its socket queue without asking the stream again while nothing waits in it', async () => {
    const batch = new FrameBatch();
    const s = new Subscriber({ connectionId: 'sse_test', channels: new Set(), symbols: [], principal: null, key: 'ip:127.0.0.1', queueBytes: 100, now: 0, batch });
    let asked = 0;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (s.controller = c) }, { highWaterMark: 0, size: (chunk) => chunk?.byteLength ?? 0 });
    const controller = s.controller!;
    Object.defineProperty(s, 'controller', { value: { enqueue: (chunk: Uint8Array) => controller.enqueue(chunk), get desiredSize() { asked++; return controller.desiredSize; } } });
    const reader = stream.getReader();
    expect(s.queued).toBe(0);
    expect(asked).toBe(0); // nothing handed over yet
    const f = frame(1);
    s.send(f);
    await Promise.resolve(); // flushed: nobody reads, so it waits in the stream's queue
    expect(s.queued).toBe(f.byteLength);
    expect(s.queued).toBe(f.byteLength);
    expect(asked).toBe(2); // asked while something waits
    expect(s.hasRoom).toBe(f.byteLength < 100);
    await reader.read();
    expect(s.queued).toBe(0); // taken: asked once more, then known
    const before = asked;
    expect(s.queued).toBe(0);
    s.send(frame(2)); // counted without asking
    expect(asked).toBe(before);
    expect(s.peakQueued).toBe(f.byteLength);
  });

  it('parks the stream’s pull while caught up: no pull per chunk taken, until it falls behind', async () => {
    const batch = new FrameBatch();
    const { s } = subscriber(batch);
    let pulls = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (c) => void (s.controller = c),
        pull: () => {
          pulls++;
          return s.park();
        },
      },
      { highWaterMark: 0, size: (chunk) => chunk?.byteLength ?? 0 },
    );
    const reader = stream.getReader();
    for (let n = 0; n < 20; n++) {
      s.send(frame(n));
      expect(decodeText((await reader.read()).value!)).toBe(decodeText(frame(n)));
    }
    expect(pulls).toBe(1); // one pull, parked since
    const waiting = reader.read(); // the socket asks for more
    s.unpark(); // fell behind: the stream pulls again for the read that waits
    await Bun.sleep(0);
    expect(pulls).toBe(2);
    s.send(frame(99));
    expect(decodeText((await waiting).value!)).toBe(decodeText(frame(99)));
  });
});
