/**
 * How the cluster suite judges a subscriber's stream (test/helpers/cluster/
 * audit `auditStream`), on hand-made streams: what counts as lost, as
 * excused by a `reset`, as a duplicate, and as another deployment's event.
 * The numbers are counted by hand from the events below.
 */
import { describe, expect, it } from 'bun:test';
import { auditStream, keyOf, type StoredEvent } from '../helpers/cluster/audit';
import type { StreamEvent, Subscriber } from '../helpers/cluster/subscriber';

const T0 = Date.UTC(2026, 10, 27, 19, 0, 0);
const at = (seconds: number) => T0 + seconds * 1000;

function stream(events: StreamEvent[], helloAt: number | undefined = at(0)): Subscriber {
  return { name: 'app1/a', events, firstHelloAt: helloAt, connects: 1, of: (...names: string[]) => events.filter((e) => names.includes(e.event)) } as unknown as Subscriber;
}

const alert = (id: string, seconds: number): StreamEvent => ({ event: 'alerts.dispatched', id: `${seconds}-0`, data: { alertId: id }, at: at(seconds) });
const stored = (id: string, seconds: number): StoredEvent => ({ key: `alert ${id}`, at: at(seconds) });

describe('a subscriber stream against the stored events', () => {
  it('keys each bus event as the database stores it', () => {
    const signalId = 'AAPL-flat_base-2026-11-20T00:00:00.000Z';
    expect(keyOf({ event: 'breakouts.new', id: '1-0', data: { signal: { id: signalId } }, at: 0 })).toBe(`new ${signalId}`);
    expect(keyOf({ event: 'breakouts.state_change', id: '1-1', data: { signalId, from: 'forming', to: 'triggered', at: '2026-11-27T00:00:00.000Z' }, at: 0 })).toBe(`change ${signalId} forming→triggered at 2026-11-27T00:00:00.000Z`);
    expect(keyOf({ event: 'hello', id: '1-1-1', data: {}, at: 0 })).toBeUndefined();
  });

  it('passes a stream that got every event stored after its hello once', () => {
    const audit = auditStream(stream([alert('alr_a', 2), alert('alr_b', 3)]), [stored('alr_old', -5), stored('alr_a', 1), stored('alr_b', 2)]);
    expect(audit).toMatchObject({ expected: 2, received: 2, lost: 0, duplicates: 0, foreign: 0, excusedByReset: 0 });
  });

  it('counts an event stored after the hello and never received as lost', () => {
    const audit = auditStream(stream([alert('alr_a', 2)]), [stored('alr_a', 1), stored('alr_b', 2), stored('alr_c', 3)]);
    expect(audit).toMatchObject({ expected: 3, received: 1, lost: 2, excusedByReset: 0 });
  });

  it('excuses a missing event only when a reset came after it was stored', () => {
    const reset: StreamEvent = { event: 'reset', id: '9-0-1', data: { reason: 'too_old' }, at: at(9) };
    const audit = auditStream(stream([alert('alr_a', 2), reset]), [stored('alr_a', 1), stored('alr_b', 5), stored('alr_late', 12)]);
    expect(audit).toMatchObject({ lost: 1, excusedByReset: 1, resets: 1 }); // alr_b before the reset; alr_late after it
  });

  it('counts a second copy as a duplicate and an unknown event as foreign', () => {
    const audit = auditStream(stream([alert('alr_a', 2), alert('alr_a', 3), alert('alr_other_deployment', 4)]), [stored('alr_a', 1)]);
    expect(audit).toMatchObject({ expected: 1, received: 3, lost: 0, duplicates: 1, foreign: 1 });
  });

  it('owes only what the database showed at the last look while it was connected', () => {
    const lastLook = [stored('alr_a', 1)]; // alr_late committed after that look, though timed before it
    const audit = auditStream(stream([alert('alr_a', 2), alert('alr_late_but_here', 9)]), [stored('alr_a', 1), stored('alr_late_but_here', 0.5), stored('alr_after_stop', 0.7)], lastLook);
    expect(audit).toMatchObject({ expected: 1, received: 2, lost: 0, foreign: 0 });
  });

  it('expects nothing of a subscriber that never connected', () => {
    const never = Object.assign(stream([]), { firstHelloAt: undefined });
    const audit = auditStream(never, [stored('alr_a', 1)]);
    expect(audit).toMatchObject({ expected: 0, lost: 0 });
  });
});
