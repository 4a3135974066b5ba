import { describe, expect, it } from 'vitest';
import { inferResetUnit, readReset, resetProblem, sameWindow, windowEndFor, type ResetSample } from './reset-unit.js';
import { fromDateHeader, instant } from './server-time.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 17, 250);
const date = fromDateHeader(new Date(NOW).toUTCString())!;
const units = (sample: ResetSample) => readReset(sample).map((reading) => reading.unit);

describe('readReset', () => {
  it('reads a window end 60 s ahead in each accepted unit, against a Date header', () => {
    const end = NOW + 60_000;
    expect(units({ value: Math.floor(end / 1000), at: date })).toEqual(['epoch-seconds']);
    expect(units({ value: Math.ceil(end / 1000), at: date })).toEqual(['epoch-seconds']);
    expect(units({ value: end, at: date })).toEqual(['epoch-milliseconds']);
    expect(units({ value: 60, at: date })).toEqual(['seconds-remaining']);
    expect(units({ value: 0, at: date })).toEqual(['seconds-remaining']);
  });

  it('refuses ends in the past, more than a window ahead, negatives and non-integers', () => {
    expect(units({ value: Math.floor((NOW - 10_000) / 1000), at: date })).toEqual([]);
    expect(units({ value: Math.floor((NOW + 3_600_000) / 1000), at: date })).toEqual([]);
    expect(units({ value: NOW + 120_000, at: date })).toEqual([]);
    expect(units({ value: 3_600, at: date })).toEqual([]);
    expect(units({ value: -1, at: date })).toEqual([]);
    expect(units({ value: 1.5, at: date })).toEqual([]);
  });

  it('judges against a moved server clock, not ours', () => {
    const later = NOW + 7 * 86_400_000;
    expect(units({ value: Math.floor((later + 30_000) / 1000), at: instant(later) })).toEqual(['epoch-seconds']);
    expect(units({ value: Math.floor((later + 30_000) / 1000), at: date })).toEqual([]);
  });

  it('puts the end of a seconds-remaining reading relative to the response', () => {
    expect(windowEndFor('seconds-remaining', 30, instant(NOW))).toEqual({ fromMs: NOW + 29_001, toMs: NOW + 30_999 });
  });
});

describe('inferResetUnit', () => {
  it('finds the one unit that fits every response', () => {
    const samples = [0, 5_000, 20_000].map((elapsed) => ({ value: Math.floor((NOW + 60_000) / 1000), at: instant(NOW + elapsed) }));
    const inference = inferResetUnit(samples);
    expect(inference).toMatchObject({ kind: 'unit', unit: 'epoch-seconds' });
    expect(inference.kind === 'unit' && inference.readings).toHaveLength(3);
  });

  it('names the first unreadable response, and units that change between responses', () => {
    expect(
      inferResetUnit([
        { value: 60, at: date },
        { value: 12, at: date },
        { value: 999_999, at: date },
      ]),
    ).toEqual({ kind: 'unreadable', index: 2 });
    expect(
      inferResetUnit([
        { value: 60, at: date },
        { value: NOW + 60_000, at: date },
      ]),
    ).toEqual({
      kind: 'inconsistent',
      units: [['seconds-remaining'], ['epoch-milliseconds']],
    });
    expect(inferResetUnit([])).toEqual({ kind: 'none' });
  });

  it('calls values that fit several units ambiguous (a server clock near the epoch)', () => {
    expect(inferResetUnit([{ value: 30, at: instant(0) }])).toEqual({ kind: 'ambiguous', units: ['epoch-seconds', 'epoch-milliseconds', 'seconds-remaining'] });
  });
});

describe('resetProblem', () => {
  const inTime = { value: Math.floor((NOW + 60_000) / 1000), at: instant(NOW) };
  const quarterHour = { value: Math.floor((NOW + 900_000) / 1000), at: instant(NOW) };
  const unreadable = { value: -1, at: instant(NOW) };

  it('finds nothing wrong with values in one unit, or while several units fit', () => {
    expect(resetProblem([inTime, { ...inTime, at: instant(NOW + 5_000) }])).toBeUndefined();
    expect(resetProblem([{ value: 30, at: instant(0) }])).toBeUndefined();
  });

  it('leaves a longer window to RL-WINDOW, unless that value is not among those judged for length', () => {
    const longer = {
      rule: 'RL-WINDOW',
      problem: "a window of a minute: X-RateLimit-Reset 1735733717 (Unix epoch seconds of the window's end) ends it 899 s after the answer",
    };
    expect(resetProblem([inTime, quarterHour])).toEqual(longer);
    expect(resetProblem([quarterHour, inTime], undefined, [inTime])).toMatchObject({ rule: 'RL-RESET', problem: expect.stringContaining('not 1735733717') });
  });

  it('fails on RL-RESET a value that reads as no window end at all, and values in no one unit', () => {
    expect(resetProblem([inTime, unreadable])).toEqual({
      rule: 'RL-RESET',
      problem:
        'X-RateLimit-Reset that reads as epoch seconds, epoch milliseconds or seconds remaining of a window ending between ' +
        '12:00:15.250–12:01:19.250, not -1 (the response was made 12:00:17.250)',
    });
    expect(
      resetProblem([
        { value: 60, at: date },
        { value: NOW + 60_000, at: date },
      ]),
    ).toEqual({
      rule: 'RL-RESET',
      problem: `X-RateLimit-Reset in one unit on every response (response 1: 60 as seconds-remaining; response 2: ${NOW + 60_000} as epoch-milliseconds)`,
    });
  });
});

describe('sameWindow', () => {
  it('tells a continuing window from a restarted one in every unit', () => {
    const end = NOW + 60_000;
    expect(sameWindow('epoch-seconds', { value: Math.floor(end / 1000), at: instant(NOW) }, { value: Math.floor(end / 1000), at: instant(NOW + 30_000) })).toBe(
      true,
    );
    expect(
      sameWindow('epoch-seconds', { value: Math.floor(end / 1000), at: instant(NOW) }, { value: Math.floor(end / 1000) + 60, at: instant(NOW + 61_000) }),
    ).toBe(false);
    expect(sameWindow('seconds-remaining', { value: 60, at: date }, { value: 40, at: fromDateHeader(new Date(NOW + 20_000).toUTCString())! })).toBe(true);
    expect(sameWindow('seconds-remaining', { value: 2, at: date }, { value: 60, at: fromDateHeader(new Date(NOW + 3_000).toUTCString())! })).toBe(false);
    expect(sameWindow('epoch-milliseconds', { value: end, at: instant(NOW) }, { value: end, at: instant(NOW + 1) })).toBe(true);
  });
});
