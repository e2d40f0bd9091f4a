import { describe, expect, it } from 'bun:test';
import { STATEFUL_SCAN_INDICATORS, SCAN_STATE_WORDS } from '../../src/kernels/indicators/scan-set';
import { DEFAULT_CAPACITY } from '../../src/store/bar-store';
import { COLUMNS, HEADER_BYTES, PAGE_BYTES, columnOffset, columnStride, scanStateBytes, scanStateOffset, scanValuesOffset, segmentBytes } from '../../src/store/layout';

/** [start, end) byte ranges of every column (bars, or indicator values) of a segment. */
function barColumns(slots: number, capacity: number, stride = columnStride(capacity)): [number, number][] {
  return Array.from({ length: slots * COLUMNS.length }, (_, k) => {
    const start = columnOffset(slots, stride, Math.floor(k / COLUMNS.length), k % COLUMNS.length);
    return [start, start + capacity * 8];
  });
}

function valueColumns(slots: number, capacity: number, stride = columnStride(capacity)): [number, number][] {
  return Array.from({ length: slots * STATEFUL_SCAN_INDICATORS.length }, (_, k) => {
    const start = scanValuesOffset(slots, stride, Math.floor(k / STATEFUL_SCAN_INDICATORS.length)) + (k % STATEFUL_SCAN_INDICATORS.length) * stride * 8;
    return [start, start + capacity * 8];
  });
}

const CASES: [number, number][] = [
  ...Object.values(DEFAULT_CAPACITY).map((capacity): [number, number] => [64, capacity]),
  [1, 1],
  [3, 511],
  [5, 513],
  [64, 512],
];

describe('store layout', () => {
  it('starts every column on a page of its own, after the headers, without overlap, inside the buffer', () => {
    for (const [slots, capacity] of CASES) {
      const stride = columnStride(capacity);
      for (const [columns, firstByte, bytes] of [
        [barColumns(slots, capacity), slots * HEADER_BYTES, segmentBytes(slots, stride)],
        [valueColumns(slots, capacity), scanStateOffset(slots, slots - 1) + SCAN_STATE_WORDS * 8, scanStateBytes(slots, stride)],
      ] as const) {
        expect(columns.length).toBeGreaterThan(0);
        expect(columns[0]![0]).toBeGreaterThanOrEqual(firstByte);
        for (const [i, [start, end]] of columns.entries()) {
          expect(start % PAGE_BYTES).toBe(0);
          expect(end).toBeLessThanOrEqual(bytes);
          if (i > 0) expect(start).toBeGreaterThanOrEqual(columns[i - 1]![1]);
        }
        expect(columns.at(-1)![1]).toBeGreaterThan(bytes - PAGE_BYTES);
      }
    }
  });

  it('packs columns end to end (stride = capacity): 8-byte aligned, after the headers, without overlap or gap, filling the buffer', () => {
    for (const [slots, capacity] of [...CASES, [64, 252], [64, 882], [7, 3]] as [number, number][]) {
      for (const [columns, firstByte, bytes] of [
        [barColumns(slots, capacity, capacity), slots * HEADER_BYTES, segmentBytes(slots, capacity)],
        [valueColumns(slots, capacity, capacity), scanStateOffset(slots, slots - 1) + SCAN_STATE_WORDS * 8, scanStateBytes(slots, capacity)],
      ] as const) {
        expect(columns.length).toBeGreaterThan(0);
        expect(columns[0]![0]).toBeGreaterThanOrEqual(firstByte);
        expect(columns[0]![0] % PAGE_BYTES).toBe(0);
        for (const [i, [start]] of columns.entries()) {
          expect(start % 8).toBe(0);
          if (i > 0) expect(start).toBe(columns[i - 1]![1]);
        }
        expect(columns.at(-1)![1]).toBe(bytes);
      }
    }
  });

  it('pads a column to the next multiple of 512 values only', () => {
    expect([1, 511, 512, 513, 2_520, 12_600].map(columnStride)).toEqual([512, 512, 512, 1024, 2560, 12_800]);
  });
});
