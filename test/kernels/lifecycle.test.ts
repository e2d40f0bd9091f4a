import { describe, expect, it } from 'bun:test';
import { BREAKOUT_STATES } from '../../src/domain/signal';
import { advance, initialSnapshot, step, TRANSITIONS, type LifecycleBar, type LifecycleSnapshot } from '../../src/kernels/lifecycle';
import { seededRandom } from '../helpers/random';

const long = () => initialSnapshot({ direction: 'long', trigger: 100, target1: 110, stopLoss: 95 });
const short = () => initialSnapshot({ direction: 'short', trigger: 100, target1: 90, stopLoss: 105 });
let t = 0;
const bar = (close: number, opts: Partial<LifecycleBar> = {}): LifecycleBar => ({ ts: ++t, high: close + 0.5, low: close - 0.5, close, volumeRatio: 1.5, ...opts });
const states = (transitions: { to: string }[]) => transitions.map((x) => x.to);

describe('breakout lifecycle', () => {
  it('triggers on a close above the trigger, confirms after 3 holding closes on volume, then hits the target', () => {
    const { snapshot, transitions } = advance(long(), [bar(99), bar(101), bar(102), bar(103), bar(108), bar(109.8, { high: 110.2 })]);
    expect(states(transitions)).toEqual(['triggered', 'confirmed', 'target_hit']);
    expect(snapshot.state).toBe('target_hit');
    expect(transitions[2]!.price).toBe(110);
  });

  it('does not confirm on thin volume', () => {
    const { snapshot } = advance(long(), [bar(101, { volumeRatio: 0.6 }), bar(102, { volumeRatio: 0.7 }), bar(102.5, { volumeRatio: 0.8 })]);
    expect(snapshot.state).toBe('triggered');
  });

  it('fails when a triggered breakout closes back inside the pattern', () => {
    const { transitions } = advance(long(), [bar(101), bar(98.5)]);
    expect(states(transitions)).toEqual(['triggered', 'failed']);
  });

  it('tolerates a close just under the trigger (within the 1% buffer)', () => {
    const { snapshot } = advance(long(), [bar(101), bar(99.5)]);
    expect(snapshot.state).toBe('triggered');
  });

  it('counts a bar that touches both the target and the stop as stopped', () => {
    const confirmed: LifecycleSnapshot = { ...long(), state: 'confirmed' };
    const { next, transition } = step(confirmed, bar(100, { high: 111, low: 94 }));
    expect(next.state).toBe('stopped');
    expect(transition).toMatchObject({ from: 'confirmed', to: 'stopped', price: 95 });
  });

  it('expires a forming signal that never triggers, or closes through its stop', () => {
    const quiet = Array.from({ length: 16 }, () => bar(98));
    expect(states(advance(long(), quiet).transitions)).toEqual(['expired']);
    expect(advance(long(), quiet.slice(0, 15)).snapshot.state).toBe('forming');
    expect(states(advance(long(), [bar(94.9)]).transitions)).toEqual(['expired']);
  });

  it('mirrors every rule for shorts', () => {
    const { transitions } = advance(short(), [bar(99), bar(98), bar(97), bar(91), bar(90.4, { low: 89.9 })]);
    expect(states(transitions)).toEqual(['triggered', 'confirmed', 'target_hit']);
    expect(states(advance(short(), [bar(99), bar(101.5)]).transitions)).toEqual(['triggered', 'failed']);
  });

  it('never leaves a terminal state', () => {
    const done: LifecycleSnapshot = { ...long(), state: 'failed' };
    expect(advance(done, [bar(150), bar(50)]).transitions).toEqual([]);
  });

  it('makes only the transitions DESIGN §4 allows, on random walks', () => {
    const rand = seededRandom(7);
    let moves = 0;
    for (let run = 0; run < 500; run++) {
      let price = 100;
      const bars = Array.from({ length: 60 }, () => {
        price *= 1 + (rand() - 0.48) * 0.04;
        return bar(price, { high: price * (1 + rand() * 0.02), low: price * (1 - rand() * 0.02), volumeRatio: rand() * 2.5 });
      });
      const { transitions } = advance(run % 2 ? long() : short(), bars);
      moves += transitions.length;
      for (const x of transitions) expect(TRANSITIONS[x.from]).toContain(x.to);
      for (let i = 1; i < transitions.length; i++) expect(transitions[i]!.from).toBe(transitions[i - 1]!.to);
    }
    expect(moves).toBeGreaterThan(0);
    expect(BREAKOUT_STATES).toHaveLength(7);
  });
});
