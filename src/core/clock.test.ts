import { describe, expect, it } from 'vitest';
import { ManualClock, VirtualClock, type Clock } from './clock.js';

/** A source clock the test moves, standing in for real time. */
function source(startMs: number): Clock & { tick(ms: number): void } {
  let nowMs = startMs;
  return { now: () => nowMs, tick: (ms) => (nowMs += ms) };
}

describe('VirtualClock', () => {
  it('runs with its source, shifted by advance and set', () => {
    const real = source(1_000);
    const clock = new VirtualClock({ source: real });
    real.tick(500);
    expect(clock.now()).toBe(1_500);
    clock.advance(10_000);
    real.tick(1);
    expect(clock.now()).toBe(11_501);
    clock.set(50_000);
    real.tick(5);
    expect(clock.now()).toBe(50_005);
  });

  it('stands still while frozen, moves only when told, and runs on from there once unfrozen', () => {
    const real = source(1_000);
    const clock = new VirtualClock({ source: real, frozen: true, startMs: 7_000 });
    real.tick(60_000);
    expect(clock.now()).toBe(7_000);
    clock.advance(3_000);
    expect(clock.now()).toBe(10_000);
    clock.unfreeze();
    real.tick(2);
    expect(clock.now()).toBe(10_002);
    clock.freeze();
    real.tick(100);
    expect(clock.now()).toBe(10_002);
  });

  it('resets to the source time, frozen only if it started frozen', () => {
    const real = source(1_000);
    const running = new VirtualClock({ source: real });
    running.advance(99_000);
    running.freeze();
    running.reset();
    real.tick(1);
    expect(running.now()).toBe(1_001);
    expect(running.frozen).toBe(false);
    const frozen = new VirtualClock({ source: real, frozen: true, startMs: 0 });
    frozen.reset();
    expect(frozen.frozen).toBe(true);
    expect(frozen.now()).toBe(1_001);
  });

  it('ManualClock is frozen at its start', () => {
    const clock = new ManualClock(42);
    expect(clock.frozen).toBe(true);
    expect(clock.now()).toBe(42);
  });
});
