import { describe, expect, it } from 'vitest';
import { consistentWithWindow, readRetryAfter } from './retry-after.js';

describe('readRetryAfter', () => {
  it('reads seconds up to an hour and milliseconds beyond, as the scheduler does', () => {
    expect(readRetryAfter(42)).toEqual({ unit: 'seconds', waitMs: 42_000 });
    expect(readRetryAfter(0)).toEqual({ unit: 'seconds', waitMs: 0 });
    expect(readRetryAfter(3_600)).toEqual({ unit: 'seconds', waitMs: 3_600_000 });
    expect(readRetryAfter(42_000)).toEqual({ unit: 'milliseconds', waitMs: 42_000 });
  });

  it('lets the wait that X-RateLimit-Reset implies settle the unit', () => {
    expect(readRetryAfter(1_500, { fromMs: 1_000, toMs: 2_000 })).toEqual({ unit: 'milliseconds', waitMs: 1_500 });
    expect(readRetryAfter(2, { fromMs: 1_000, toMs: 2_000 })).toEqual({ unit: 'seconds', waitMs: 2_000 });
    // Both readings match a wait of about a second: the default rule decides.
    expect(readRetryAfter(1, { fromMs: 0, toMs: 1_000 })).toEqual({ unit: 'seconds', waitMs: 1_000 });
    // Neither matches: the default rule decides, and the window judges.
    expect(readRetryAfter(50, { fromMs: 10_000, toMs: 11_000 })).toEqual({ unit: 'seconds', waitMs: 50_000 });
  });

  it('reads minutes where only they fit the wait, a whole minute of rounding allowed', () => {
    expect(readRetryAfter(1, { fromMs: 59_000, toMs: 60_000 })).toEqual({ unit: 'minutes', waitMs: 60_000 });
    expect(readRetryAfter(1, { fromMs: 20_000, toMs: 21_000 })).toEqual({ unit: 'minutes', waitMs: 60_000 });
    // Seconds and minutes both fit a wait of a second: the default rule decides.
    expect(readRetryAfter(1, { fromMs: 500, toMs: 1_000 })).toEqual({ unit: 'seconds', waitMs: 1_000 });
  });

  it('has no reading for a negative or fractional value', () => {
    expect(readRetryAfter(-1)).toBeUndefined();
    expect(readRetryAfter(0.5)).toBeUndefined();
  });
});

describe('consistentWithWindow', () => {
  it('allows any wait up to the 60 s window', () => {
    expect(consistentWithWindow({ unit: 'seconds', waitMs: 60_000 })).toBe(true);
    expect(consistentWithWindow({ unit: 'seconds', waitMs: 61_000 })).toBe(false);
    expect(consistentWithWindow({ unit: 'milliseconds', waitMs: 59_999 })).toBe(true);
    expect(consistentWithWindow(readRetryAfter(120)!)).toBe(false);
  });
});
