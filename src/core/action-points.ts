import { HEADERS } from '../spec/limits.js';
import type { Variants } from './active-variants.js';
import { ApiError } from './errors.js';
import { nextRefillHeader } from './variant-effects.js';

export interface ActionPointRules {
  start: number;
  max: number;
  refillIntervalMs: number;
}

/** Points as last written, and when the most recent point accrued (refill is computed on read). */
export interface ActionPoints {
  points: number;
  accruedAt: number;
}

export function initialActionPoints(rules: ActionPointRules, now: number): ActionPoints {
  return { points: Math.min(rules.start, rules.max), accruedAt: now };
}

/** Brings the stored points up to `now`: one point per interval elapsed, never above the maximum. */
export function refill(state: ActionPoints, rules: ActionPointRules, now: number): void {
  const elapsed = now - state.accruedAt;
  if (state.points >= rules.max || elapsed < 0) {
    // A full bar does not bank time, and a clock set backwards restarts the interval.
    state.points = Math.min(state.points, rules.max);
    state.accruedAt = now;
    return;
  }
  const gained = Math.floor(elapsed / rules.refillIntervalMs);
  state.points = Math.min(rules.max, state.points + gained);
  state.accruedAt = state.points === rules.max ? now : state.accruedAt + gained * rules.refillIntervalMs;
}

/** Throws the 403 (with the point headers) when fewer than `cost` points remain. */
export function assertAffordable(state: ActionPoints, cost: number, rules: ActionPointRules, variants: Variants, now: number): void {
  refill(state, rules, now);
  if (state.points < cost) {
    throw new ApiError(
      403,
      `Insufficient action points: this action costs ${cost}, ${state.points} remaining`,
      actionPointHeaders(state, rules, variants, now),
    );
  }
}

export function spend(state: ActionPoints, cost: number, rules: ActionPointRules, variants: Variants, now: number): void {
  assertAffordable(state, cost, rules, variants, now);
  state.points -= cost;
}

/** X-ActionPoints-Remaining, and X-ActionPoints-NextRefill (seconds, or minutes as a variant) when none remain. */
export function actionPointHeaders(state: ActionPoints, rules: ActionPointRules, variants: Variants, now: number): Record<string, string> {
  refill(state, rules, now);
  const headers: Record<string, string> = { [HEADERS.actionPointsRemaining]: String(state.points) };
  if (state.points === 0) headers[HEADERS.actionPointsNextRefill] = nextRefillHeader(variants, state.accruedAt + rules.refillIntervalMs - now);
  return headers;
}
