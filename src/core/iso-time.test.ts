import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

const format = (ms: number) => new Date(ms).toISOString();

describe('isoTime', () => {
  it('writes what toISOString writes, across days and at the ends of the four-digit years', () => {
    const instants = [
      0,
      1,
      10,
      100,
      999,
      1000,
      59_999,
      86_399_999,
      86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2026, 0, 4); ms += 1_234_567) instants.push(ms);
    for (const ms of instants) expect(isoTime(ms), String(ms)).toBe(format(ms));
  });

  it('leaves instants before 1970, after year 9999 and between milliseconds to toISOString', () => {
    for (const ms of [-1, -86_400_001, Date.UTC(10_000, 0, 1), 1.5]) expect(isoTime(ms)).toBe(format(ms));
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
