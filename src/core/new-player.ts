import { type ActionPointRules, initialActionPoints } from './action-points.js';
import { playerView } from './player.js';
import { randomToken } from './secrets.js';
import type { Player, Store } from './store.js';
import { templateFields } from './user-routes/resource-templates.js';
import type { Template } from './user-routes/template.js';

/**
 * A player as the service first knows them: no ship, no encounter, the starting points, and the fields of the
 * user's `player` template when one is configured.
 */
export function newPlayer(email: string, rules: ActionPointRules, now: number, fields?: { template: Template | undefined; store: Store }): Player {
  const player: Player = {
    id: randomToken(),
    email,
    emailVerified: true,
    createdAt: now,
    actionPoints: initialActionPoints(rules, now),
    ship: null,
    inEncounter: false,
    firstValidTokenSerial: 0,
  };
  if (fields?.template === undefined) return player;
  player.sequence = fields.store.nextSequence('player');
  player.fields = templateFields('player', fields.template, { player: playerView(player, rules, now), now, counter: player.sequence });
  return player;
}
