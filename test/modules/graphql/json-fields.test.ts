/**
 * The GraphQL schema is typed field by field (modules/graphql/types derives it
 * from the REST TypeBox schemas); `JSON` is left only where the REST value has
 * no fixed fields. This test fails when a `JSON` field or argument appears
 * that is not listed below with its reason, and when a listed one is gone (so
 * the list shrinks as shapes get typed). It reads the committed
 * schema.graphql, which clients.test.ts keeps equal to the served schema.
 */
import { describe, expect, it } from 'bun:test';
import { buildSchema, getNamedType, isObjectType } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Keys that are data (a pattern, band, timeframe, direction, year, regime, reason, window, event kind), not fields: a map. */
const KEYED = 'a map keyed by data values, not by field names';
/** The spec (docs/interface.md §2) declares it an open object / array of open objects: its inner fields are not part of the contract. */
const SPEC_OPEN = 'an open object in the spec (docs/interface.md §2)';
/** The ledger record as it was hashed when first surfaced: its shape is the record's own and is never rewritten. */
const HASHED = 'the hashed ledger record as written (its shape is versioned by the record)';
/** Name → value as the caller sent it. */
const AS_ASKED = 'a string map as the caller sent it';
/** Keys such as `1w`, `3m` are not GraphQL names. */
const NOT_NAMES = 'its keys (1w, 1m, 3m) are not GraphQL names';

const ALLOWED: Record<string, string> = {
  'BreakoutsResponse.alertThresholds': SPEC_OPEN,
  'BreakoutsResponse.alertSummary': SPEC_OPEN,
  'BreakoutsResponse.latestPersistedRun': SPEC_OPEN,
  'BreakoutsResponse.runHistory': SPEC_OPEN,
  'BreakoutsResponse.symbolRollups': SPEC_OPEN,
  'SectorRotationResponseSectors.performance': NOT_NAMES,
  'MacroCalendarResponse.next': KEYED,
  'MacroCalendarResponse.coverage': KEYED,
  'LedgerRecord.signal': HASHED,
  'LedgerRecord.outcome': HASHED,
  'ReplaySummary.params': AS_ASKED,
  'InsiderSummary.otherByCode': KEYED,
  'MonthlyResponse.byPattern': KEYED,
  'MonthlyResponse.byBand': KEYED,
  'MonthlyResponse.byTimeframe': KEYED,
  'MonthlyResponse.byDirection': KEYED,
  'MonthlyResponse.method': KEYED,
  'MonthlyRecordSection.method': KEYED,
  'MonthlyRecordSection.byBand': KEYED,
  'MonthlyRecordSection.byPattern': KEYED,
  'MonthlyRecordSection.byDirection': KEYED,
  'MonthlyRecordSection.byYear': KEYED,
  'MonthlyRecordSection.byRegime': KEYED,
  'MonthlyAlertPolicyRecord.byReason': KEYED,
  'ScorecardResponse.trailing': KEYED,
  'ScorecardResponse.method': KEYED,
  'ScorecardResponseCalibration.byBand': KEYED,
  'ScorecardResponseCalibration.byPattern': KEYED,
  'ScorecardResponseCalibration.byRegime': KEYED,
  'ScorecardResponseCalibration.byTimeframe': KEYED,
  'ScorecardResponseCalibration.byDirection': KEYED,
  'RecordSection.method': KEYED,
  'RecordSection.byBand': KEYED,
  'RecordSection.byPattern': KEYED,
  'RecordSection.byDirection': KEYED,
  'RecordSection.byYear': KEYED,
  'RecordSection.byRegime': KEYED,
  'AlertPolicyRecord.byReason': KEYED,
  'OptionsFlowResponse.flow': SPEC_OPEN,
  'OptionsAnalyzeResponse.recommendation': SPEC_OPEN,
  'Export.filters': AS_ASKED,
};

/** Every field and argument of the schema whose named type is `JSON` (through lists and non-null). */
function jsonPlaces(sdl: string): string[] {
  const schema = buildSchema(sdl);
  const places: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (getNamedType(field.type).name === 'JSON') places.push(`${type.name}.${field.name}`);
      for (const arg of field.args) if (getNamedType(arg.type).name === 'JSON') places.push(`${type.name}.${field.name}(${arg.name})`);
    }
  }
  return places;
}

const SDL = readFileSync(join(import.meta.dir, '../../../src/modules/graphql/schema.graphql'), 'utf8');

describe('JSON in the GraphQL schema', () => {
  it('appears only where the allow-list gives a reason, and every listed place still exists', () => {
    const places = jsonPlaces(SDL);
    expect(places.filter((p) => !(p in ALLOWED))).toEqual([]);
    expect(Object.keys(ALLOWED).filter((p) => !places.includes(p))).toEqual([]);
  });

  it('catches a new JSON field', () => {
    const added = SDL.replace('type PriceBar {', 'type PriceBar {\n  extra: JSON');
    expect(jsonPlaces(added).filter((p) => !(p in ALLOWED))).toEqual(['PriceBar.extra']);
  });

  it('types closed lists as enums and always-present fields as non-null', () => {
    const schema = buildSchema(SDL);
    const signal = schema.getType('Signal');
    expect(isObjectType(signal)).toBe(true);
    if (!isObjectType(signal)) return;
    expect(String(signal.getFields().direction!.type)).toBe('SignalDirection!');
    expect(String(signal.getFields().stopLoss!.type)).not.toEndWith('!');
    expect(schema.getType('SignalDirection')!.toString()).toBe('SignalDirection');
  });
});
