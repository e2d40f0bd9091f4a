/**
 * @module modules/market/macro
 * The macro calendar: scheduled FOMC decisions, CPI, jobs reports and GDP
 * estimates (published schedules kept as data in providers/macro), the next
 * release of each kind and how close it is, and how far the data reaches, so a
 * caller can tell "no event soon" from "no schedule known yet".
 */
import { AppError } from '../../errors';
import { MACRO_EVENT_TYPES, macroEvents, proximity, type MacroEvent, type MacroEventType } from '../../providers/macro';
import type { MacroCalendarQuery, MacroCalendarResponse } from './model';

const DAY = 86_400_000;

const present = (e: MacroEvent) => ({ date: e.date, time: e.time, at: e.at, type: e.type, title: e.title, source: e.source });

/** The calendar, or 404 when the deployment turned it off (`MACRO_CALENDAR=off`). */
export function macroCalendar(enabled: boolean, query: MacroCalendarQuery, now = Date.now()): MacroCalendarResponse {
  if (!enabled) throw new AppError('not_found', 'The macro calendar is not available in this deployment (MACRO_CALENDAR=off)');
  if (query.from && query.to && query.from > query.to) throw new AppError('invalid_parameter', `Query parameter 'from' (${query.from}) is after 'to' (${query.to})`);
  const all = macroEvents();
  const types = new Set<MacroEventType>(query.types ? (query.types.split(',').map((s) => s.trim()) as MacroEventType[]) : MACRO_EVENT_TYPES);
  const from = query.from ?? new Date(now - 30 * DAY).toISOString().slice(0, 10);
  const to = query.to ?? '9999-12-31';
  const events = all.filter((e) => types.has(e.type) && e.date >= from && e.date <= to).map(present);

  const near = proximity(now);
  const next = Object.fromEntries(
    [...types].map((type) => {
      const p = near[type];
      return [type, { next: p.next ? present(p.next) : null, calendarDays: p.calendarDays, hoursUntil: p.hoursUntil, within1Day: p.within1Day, within5Days: p.within5Days }];
    }),
  );
  const coverage = Object.fromEntries(
    [...types].map((type) => {
      const ofType = all.filter((e) => e.type === type);
      return [type, { from: ofType[0]?.date ?? null, through: ofType.at(-1)?.date ?? null, count: ofType.length, scheduleKnownAhead: near[type].next !== null }];
    }),
  );
  const upcoming = all.filter((e) => types.has(e.type) && e.ts >= now);
  const soonest = upcoming[0];
  return {
    asOf: new Date(now).toISOString(),
    timezone: 'America/New_York',
    window: { from, to: query.to ?? null },
    count: events.length,
    events,
    next,
    nextEvent: soonest ? { ...present(soonest), hoursUntil: Math.round((soonest.ts - now) / 36_000) / 100 } : null,
    coverage,
  };
}
