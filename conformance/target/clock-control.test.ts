import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import { ClockControl } from './clock-control.js';

/** A target whose clock reads `nowMs`, counting the readings asked of it. */
function targetAt(nowMs: number) {
  const sent = { readings: 0 };
  const send = async () => {
    sent.readings++;
    return { status: 200, body: { nowMs } } as unknown as Exchange;
  };
  return { clock: new ClockControl({ send }), sent };
}

afterEach(() => vi.useRealTimers());

describe('ClockControl', () => {
  it("bounds the target's now from above without asking: the latest reading and this machine's time since", async () => {
    vi.useFakeTimers();
    const { clock, sent } = targetAt(1_000_000);
    expect(() => clock.notBeforeNow()).toThrow(/never read/);
    expect(await clock.notAfterNow()).toBe(1_000_000);
    vi.advanceTimersByTime(50);
    expect(clock.notBeforeNow()).toBe(1_000_050);
    expect(sent.readings).toBe(1);
  });

  it('reads the clock again for a lower bound once the latest reading is older than a moment', async () => {
    vi.useFakeTimers();
    const { clock, sent } = targetAt(1_000_000);
    await clock.notAfterNow();
    await clock.notAfterNow();
    expect(sent.readings).toBe(1);
    vi.advanceTimersByTime(25);
    await clock.notAfterNow();
    expect(sent.readings).toBe(2);
  });
});
