/**
 * `breakline replay`'s command line and progress line (the replay itself is
 * tested in test/jobs/replay*.test.ts).
 */
import { describe, expect, it } from 'bun:test';
import { progressLine, replayArguments } from '../../src/cli/replay';

describe('breakline replay arguments', () => {
  it('reads the issue’s example and its defaults', () => {
    expect(replayArguments(['--from', '2005-01-01', '--to', '2024-03-08'])).toEqual({
      ok: true,
      value: { from: '2005-01-01', to: '2024-03-08', universe: { kind: 'default' }, timeframe: 'daily', benchmark: 'SPY', fresh: false },
    });
    expect(replayArguments(['--universe', 'sp500', '--timeframe', '4h'])).toMatchObject({ ok: true, value: { universe: { kind: 'sp500' }, timeframe: '4h', from: undefined } });
    expect(replayArguments(['--symbols', 'aapl, msft,BRK.B', '--fresh'])).toMatchObject({ ok: true, value: { universe: { kind: 'symbols', symbols: ['AAPL', 'MSFT', 'BRK.B'] }, fresh: true } });
  });

  it.each([
    [['--from', '2005-13-01'], '--from must be a date'],
    [['--from', '2024-03-08', '--to', '2005-01-01'], 'is after --to'],
    [['--timeframe', 'weekly'], '--timeframe must be one of daily, 4h, 1h'],
    [['--symbols', 'AAPL', '--universe', 'sp500'], 'not both'],
    [['--universe', 'nasdaq'], '--universe must be default'],
    [['--symbols', 'AAPL,9X'], 'not symbols: 9X'],
    [['--until', '2024-01-01'], "Unknown option '--until'"],
  ])('refuses %j', (args, message) => {
    const parsed = replayArguments(args);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(message);
  });
});

describe('the progress line', () => {
  it('shows sessions done, the date reached, signals and the time left at the pace since it (re)started', () => {
    const line = progressLine({ runId: 'rpl_x', sessionsDone: 300, sessionsTotal: 400, resumedAt: 100, through: '2024-01-05', signals: 12345, records: 40000, elapsedMs: 60_000 }, 20);
    expect(line).toBe('[###############.....] 300/400 sessions (2024-01-05)  signals 12,345  records 40,000  elapsed 1m00s  ETA 30s');
  });
});
