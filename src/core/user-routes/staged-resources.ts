import { ApiError } from '../errors.js';
import type { Player } from '../store.js';
import { assertJsonWithin, jsonCopy } from './json-fields.js';
import { NO_SHIP_MESSAGE, type ResourceKind } from './resource-templates.js';
import { MAX_RESOURCE_FIELDS_BYTES } from './user-route.js';

/**
 * The fields one request writes into the caller's ship and player: nothing reaches them until `commit`, so that a
 * refused request (403, 409, 413, 4xx of a handler) leaves both as they were.
 */
export class StagedResources {
  readonly #player: Player | undefined;
  readonly #pending: Partial<Record<ResourceKind, Record<string, unknown>>> = {};

  constructor(player: Player | undefined) {
    this.#player = player;
  }

  /** Merges `fields` (names the caller checked are not the mock's own) over what this request wrote before. */
  update(kind: ResourceKind, fields: Readonly<Record<string, unknown>>): void {
    if (this.#player === undefined) throw new ApiError(400, `a public route has no player, nor a ship, to write fields into`);
    if (kind === 'ship' && this.#player.ship === null) throw new ApiError(404, NO_SHIP_MESSAGE);
    const copy = jsonCopy(`The ${kind}'s fields`, fields) as Record<string, unknown>;
    this.#pending[kind] = { ...this.#pending[kind], ...copy };
  }

  #merged(kind: ResourceKind): Record<string, unknown> | undefined {
    const pending = this.#pending[kind];
    if (pending === undefined || this.#player === undefined) return undefined;
    const current = kind === 'ship' ? this.#player.ship?.owned : this.#player.fields;
    return { ...current, ...pending };
  }

  /** Refuses (413) fields beyond MAX_RESOURCE_FIELDS_BYTES before anything of the request is kept. */
  assertWithinBound(): void {
    for (const kind of ['ship', 'player'] as const) {
      const merged = this.#merged(kind);
      if (merged !== undefined) assertJsonWithin(`The ${kind}'s fields`, merged, MAX_RESOURCE_FIELDS_BYTES);
    }
  }

  commit(): void {
    const ship = this.#merged('ship');
    const fields = this.#merged('player');
    if (ship !== undefined && this.#player?.ship) this.#player.ship.owned = ship;
    if (fields !== undefined && this.#player !== undefined) this.#player.fields = fields;
  }
}
