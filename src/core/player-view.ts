import { type ActionPointRules, refill } from './action-points.js';
import { isoTime } from './iso-time.js';
import type { Player, Ship } from './store.js';

/**
 * The ship: the fields it was created with, the user's over them (its template's, a world's, what routes wrote), and
 * the mock's own id, name and createdAt, which the user's never name.
 */
export function shipView(ship: Ship) {
  // The id first, as before the payload was kept.
  return Object.assign({ id: ship.id }, ship.fields, ship.owned, { id: ship.id, name: ship.name, createdAt: isoTime(ship.createdAt) });
}

/** The player resource (the spec does not show its fields): the mock's own, and the user's beside them. */
export function playerView(player: Player, rules: ActionPointRules, now: number) {
  refill(player.actionPoints, rules, now);
  const own = {
    id: player.id,
    email: player.email,
    emailVerified: player.emailVerified,
    createdAt: isoTime(player.createdAt),
    actionPoints: player.actionPoints.points,
    maxActionPoints: rules.max,
    ship: player.ship === null ? null : shipView(player.ship),
  };
  return player.fields === undefined ? own : Object.assign(own, player.fields);
}
