import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_WINDOW_MS } from '../../../src/spec/limits.js';
import { instant } from '../model/server-time.js';
import { ServerChoices } from './server-choices.js';

/** Half a window past a clock minute, as the fuzzer's calibration request is sent. */
const AT = Date.parse('2030-01-01T09:00:30.000Z') + 923;

describe('ServerChoices', () => {
  it('learns first-hit windows from a Reset in milliseconds that the server rounded down to the second', () => {
    const choices = new ServerChoices();
    const truncated = Math.floor((AT + RATE_LIMIT_WINDOW_MS) / 1000) * 1000;
    const verdict = choices.readReset({ value: truncated, at: instant(AT) }, true, 'public');
    expect(verdict).toEqual({ windowEnd: { fromMs: truncated, toMs: truncated } });
    expect(choices.resetUnits.get('public')).toBe('epoch-milliseconds');
    expect(choices.alignments.get('public')).toBe('first-hit');
  });

  it('learns clock-minute windows from a Reset in epoch seconds at the next minute', () => {
    const choices = new ServerChoices();
    const nextMinute = Math.ceil(AT / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS;
    choices.readReset({ value: nextMinute / 1000, at: instant(AT) }, true, 'public');
    expect(choices.resetUnits.get('public')).toBe('epoch-seconds');
    expect(choices.alignments.get('public')).toBe('clock-minute');
  });

  it('learns each category its own way: auth on clock minutes beside public windows from the first request', () => {
    const choices = new ServerChoices();
    const nextMinute = Math.ceil(AT / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS;
    choices.readReset({ value: nextMinute / 1000, at: instant(AT) }, true, 'auth');
    choices.readReset({ value: Math.floor((AT + RATE_LIMIT_WINDOW_MS) / 1000), at: instant(AT) }, true, 'public');
    expect(Object.fromEntries(choices.alignments)).toEqual({ auth: 'clock-minute', public: 'first-hit' });
  });

  it("holds the unit a category's answers showed: a later Reset of that category in another unit is a problem", () => {
    const choices = new ServerChoices();
    const end = AT + RATE_LIMIT_WINDOW_MS;
    choices.readReset({ value: Math.floor(end / 1000), at: instant(AT) }, true, 'public');
    expect(choices.readReset({ value: end, at: instant(AT + 1_000) }, false, 'public')).toEqual({
      rule: 'RL-RESET',
      problem: `X-RateLimit-Reset ${end} no longer reads as Unix epoch seconds of the window's end of a window open now, as earlier public responses did`,
    });
  });

  it('learns the unit of each category apart: auth in seconds remaining beside reads in epoch seconds, each then held', () => {
    const choices = new ServerChoices();
    const end = AT + RATE_LIMIT_WINDOW_MS;
    expect(choices.readReset({ value: Math.floor(end / 1000), at: instant(AT) }, true, 'read')).toHaveProperty('windowEnd');
    expect(choices.readReset({ value: RATE_LIMIT_WINDOW_MS / 1000, at: instant(AT) }, true, 'auth')).toHaveProperty('windowEnd');
    expect(Object.fromEntries(choices.resetUnits)).toEqual({ read: 'epoch-seconds', auth: 'seconds-remaining' });
    expect(choices.copy().resetUnits).toEqual(choices.resetUnits);
    expect(choices.describe(0)[0]).toBe("X-RateLimit-Reset: Unix epoch seconds of the window's end (read); seconds remaining until the window ends (auth)");
    expect(choices.readReset({ value: Math.floor(end / 1000), at: instant(AT + 1_000) }, false, 'auth')).toMatchObject({ rule: 'RL-RESET' });
    expect(choices.readReset({ value: 59, at: instant(AT + 1_000) }, false, 'read')).toMatchObject({ rule: 'RL-RESET' });
  });

  it('learns the unit of Retry-After at the first 429 and holds it', () => {
    const choices = new ServerChoices();
    const wait = { fromMs: 30_000, toMs: 30_000 };
    expect(choices.checkRetryAfter(30, wait)).toBeUndefined();
    expect(choices.retryAfterUnit).toBe('seconds');
    expect(choices.checkRetryAfter(30_000, wait)).toBe('Retry-After 30000 (seconds) asks for a wait longer than the one-minute window');
    expect(choices.checkRetryAfter(10, wait)).toBe('Retry-After 10 asks for 10 s in seconds, but the window ends in 30–30 s');
  });

  it('infers minutes where only they fit, then reads a later 1 as up to a minute of rounding', () => {
    const choices = new ServerChoices();
    expect(choices.checkRetryAfter(1, { fromMs: 59_000, toMs: 60_000 })).toBeUndefined();
    expect(choices.retryAfterUnit).toBe('minutes');
    expect(choices.checkRetryAfter(1, { fromMs: 20_000, toMs: 21_000 })).toBeUndefined();
    expect(choices.checkRetryAfter(2, { fromMs: 59_000, toMs: 60_000 })).toBe('Retry-After 2 (minutes) asks for a wait longer than the one-minute window');
  });

  it('learns no unit from a value that several readings fit, and fails one that none fits', () => {
    const choices = new ServerChoices();
    expect(choices.checkRetryAfter(1, { fromMs: 500, toMs: 1_000 })).toBeUndefined();
    expect(choices.retryAfterUnit).toBeUndefined();
    expect(choices.checkRetryAfter(3_600_000, undefined)).toBe(
      'Retry-After 3600000 (seconds or milliseconds or minutes) asks for a wait longer than the one-minute window',
    );
    expect(choices.checkRetryAfter(4, { fromMs: 10_000, toMs: 11_000 })).toBe(
      'Retry-After 4 asks for 4 s in seconds, 0.004 s in milliseconds, but the window ends in 10–11 s',
    );
  });

  it('says of Retry-After what the whole session showed, though each run learns its unit afresh', () => {
    const start = new ServerChoices();
    expect(start.describe(0)[2]).toBe('Retry-After: unit not known: no 429 seen');
    expect(start.describe(491)[2]).toBe('Retry-After: unit not known: none of the 491 429s seen carried a readable Retry-After');
    const run = start.copy();
    expect(run.checkRetryAfter(30, undefined)).toBeUndefined();
    expect(run.describe(491)[2]).toBe(
      "Retry-After: unit not known: 1 value read, none where the model knew the wait (each near a window's end), so none was judged",
    );
    expect(run.checkRetryAfter(1, { fromMs: 500, toMs: 1_000 })).toBeUndefined();
    expect(run.describe(491)[2]).toBe('Retry-After: unit not known: 1 value judged against the wait, none fitting it in one unit alone');
    expect(run.checkRetryAfter(30, { fromMs: 30_000, toMs: 30_000 })).toBeUndefined();
    const nextRun = start.copy();
    expect(nextRun.retryAfterUnit).toBeUndefined();
    expect(nextRun.describe(491)[2]).toBe('Retry-After: seconds');
  });

  it('takes a Retry-After that names the whole window wherever the window ends', () => {
    const choices = new ServerChoices();
    for (const fromMs of [2_000, 20_000, 45_000]) expect(choices.checkRetryAfter(60, { fromMs, toMs: fromMs + 1_000 })).toBeUndefined();
    expect(choices.retryAfterUnit).toBe('seconds');
  });
});
