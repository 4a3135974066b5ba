import { type ActionPointRules, initialActionPoints } from './action-points.js';
import { randomToken } from './secrets.js';
import type { Player } from './store.js';

/** A player as the service first knows them: no ship, no encounter, the starting points. */
export function newPlayer(email: string, rules: ActionPointRules, now: number): Player {
  return {
    id: randomToken(),
    email,
    emailVerified: true,
    createdAt: now,
    actionPoints: initialActionPoints(rules, now),
    ship: null,
    inEncounter: false,
    firstValidTokenSerial: 0,
  };
}
