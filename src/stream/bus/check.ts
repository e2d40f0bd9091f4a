/**
 * @module stream/bus/check
 * An event read back from outside this process (a row of the log, a Redis
 * Stream entry) becomes a bus event only once its channel is one of ours and
 * its payload passes that channel's schema (domain/check `storedAs`). What
 * fails is not delivered: the bus treats its position as lost (a gap, so the
 * subscribers are told `reset`), never as something to skip silently.
 */
import { storedAs } from '../../domain/check';
import { formatEventId, positionId } from '../event-id';
import { BUS_SCHEMAS, isChannel, type BusEvent, type BusEventInput, type BusEvents, type Channel } from './interface';

type Checker<C extends Channel> = (value: unknown, what: string) => BusEvents[C];
const CHECKED: { [C in Channel]: Checker<C> } = {
  'breakouts.new': storedAs(BUS_SCHEMAS['breakouts.new']),
  'breakouts.state_change': storedAs(BUS_SCHEMAS['breakouts.state_change']),
  'alerts.dispatched': storedAs(BUS_SCHEMAS['alerts.dispatched']),
  'backtest.progress': storedAs(BUS_SCHEMAS['backtest.progress']),
};

/** The bus event of one of our own (typed) events at `position`: a transaction of this process wrote it, nothing to check. */
export function busEvent<C extends Channel>(position: number, recordedAt: number, event: BusEventInput<C>): BusEvent<C> {
  return { id: formatEventId(positionId(position)), position, recordedAt, channel: event.channel, payload: event.payload } as BusEvent<C>;
}

/** The checked event; throws (StoredDataError, Error) when the channel or payload is not one of ours. */
export function checkedEvent(position: number, recordedAt: number, channel: string, payload: unknown, where: string): BusEvent {
  if (!isChannel(channel)) throw new Error(`${where} at position ${position}: unknown channel '${channel}'`);
  return checkedOf(position, recordedAt, channel, payload, where);
}

function checkedOf<C extends Channel>(position: number, recordedAt: number, channel: C, payload: unknown, where: string): BusEvent<C> {
  const check: Checker<C> = CHECKED[channel];
  return busEvent(position, recordedAt, { channel, payload: check(payload, `${where} at position ${position} (${channel})`) } as BusEventInput<C>);
}
