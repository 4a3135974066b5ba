import type { ClockControl } from './clock-control.js';
import type { Target } from './target.js';
import { CONTROL_ROUTES } from '../../src/spec/control-routes.js';

/**
 * Runs `body` with the target's clock frozen, so that boundaries are exact, and leaves the clock
 * running again afterwards if it was running before (other checks may rely on real time passing).
 */
export async function withFrozenClock<T>(target: Target, clock: ClockControl, body: () => Promise<T>): Promise<T> {
  const state = await target.send({ method: CONTROL_ROUTES.clock.method, path: CONTROL_ROUTES.clock.pattern });
  const wasFrozen = (state.body as { frozen?: unknown } | undefined)?.frozen === true;
  await clock.freeze();
  try {
    return await body();
  } finally {
    if (!wasFrozen) await target.send({ method: CONTROL_ROUTES.setClock.method, path: CONTROL_ROUTES.setClock.pattern, json: { frozen: false } });
  }
}

/** Moves a frozen clock forward to `at` (ms); false when it is already past it. */
export async function advanceTo(clock: ClockControl, at: number): Promise<boolean> {
  const now = await clock.now();
  if (now > at) return false;
  if (now < at) await clock.advance(at - now);
  return true;
}
