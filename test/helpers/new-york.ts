/**
 * @module test/helpers/new-york — the oracle for time-zone tests: the runtime's
 * IANA data for America/New_York (through Intl), independent of
 * src/providers/calendar's own arithmetic.
 *
 * @example
 * intlNewYork(Date.parse('2025-03-12T12:30:00Z')); // => { date: '2025-03-12', time: '08:30' }
 */
const nyFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The New York wall-clock date (`yyyy-mm-dd`) and time (`HH:MM`) of an instant. */
export function intlNewYork(epochMs: number): { date: string; time: string } {
  const p = Object.fromEntries(nyFormat.formatToParts(epochMs).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}
