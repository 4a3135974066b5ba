import { describe, expect, it } from 'vitest';
import { readReset } from './reset-unit.js';
import { fromDateHeader, instant } from './server-time.js';
import { alignmentsFitting, inferAlignment, type WindowSample } from './window-alignment.js';

const MINUTE = Date.UTC(2025, 0, 1, 12, 0, 0);

/** A first hit at `atMs` whose window ends at `endMs`, seen through an epoch-seconds Reset and a Date header. */
function seen(atMs: number, endMs: number, firstHit = true): WindowSample {
  const at = fromDateHeader(new Date(atMs).toUTCString())!;
  return { at, windowEnd: readReset({ value: Math.floor(endMs / 1000), at })[0]!.windowEnd, firstHit };
}

describe('alignmentsFitting', () => {
  it('sees a window that starts at the first hit', () => {
    expect(alignmentsFitting(seen(MINUTE + 17_400, MINUTE + 77_400))).toEqual(['first-hit']);
    expect(alignmentsFitting({ at: instant(MINUTE + 17_400), windowEnd: instant(MINUTE + 77_400), firstHit: true })).toEqual(['first-hit']);
  });

  it('sees a window aligned to clock minutes', () => {
    expect(alignmentsFitting(seen(MINUTE + 17_400, MINUTE + 60_000))).toEqual(['clock-minute']);
    expect(alignmentsFitting(seen(MINUTE + 17_400, MINUTE + 60_000, false))).toEqual(['clock-minute']);
  });

  it('cannot tell them apart at a boundary', () => {
    expect(alignmentsFitting({ at: instant(MINUTE), windowEnd: instant(MINUTE + 60_000), firstHit: true })).toEqual(['first-hit', 'clock-minute']);
  });
});

describe('inferAlignment', () => {
  it('decides from first hits, and needs one', () => {
    expect(inferAlignment([seen(MINUTE + 17_400, MINUTE + 77_400), seen(MINUTE + 20_000, MINUTE + 77_400, false)])).toEqual({
      kind: 'known',
      alignment: 'first-hit',
    });
    expect(inferAlignment([seen(MINUTE + 17_400, MINUTE + 60_000), seen(MINUTE + 20_000, MINUTE + 60_000, false)])).toEqual({
      kind: 'known',
      alignment: 'clock-minute',
    });
    expect(inferAlignment([seen(MINUTE + 17_400, MINUTE + 60_000, false)])).toEqual({ kind: 'undetermined' });
    expect(inferAlignment([{ at: instant(MINUTE), windowEnd: instant(MINUTE + 60_000), firstHit: true }])).toEqual({ kind: 'ambiguous' });
  });

  it('takes no rounding slack for windows on clock minutes: a window ending 2 s after a minute is not on it', () => {
    // A first hit at :02 whose window ends at :02 a minute later, and one at :32 in the same window (a broken count).
    const samples = [seen(MINUTE + 2_000, MINUTE + 62_000), seen(MINUTE + 32_000, MINUTE + 62_000)];
    expect(inferAlignment(samples, 60_000, 999)).toEqual({ kind: 'neither' });
  });

  it('says neither for a window of another length', () => {
    expect(inferAlignment([{ at: instant(MINUTE + 17_400), windowEnd: instant(MINUTE + 47_400), firstHit: true }])).toEqual({ kind: 'neither' });
  });
});
