import { ApiError } from '../errors.js';
import { assertJsonWithin, jsonCopy } from './json-fields.js';
import type { Player } from '../store.js';
import { MAX_ROUTE_STATE_BYTES, type RouteStateAccess } from './user-route.js';

/**
 * A player's route state as one request changes it: reads see its own writes, and nothing reaches the player
 * record until `commit`, so that a refused request (403, 409, 4xx of a handler) leaves the state as it was.
 */
export class StagedRouteState implements RouteStateAccess {
  readonly #player: Player | undefined;
  #values: Record<string, unknown>;
  #changed = false;

  constructor(player: Player | undefined) {
    this.#player = player;
    this.#values = { ...player?.routeState };
  }

  get(key: string): unknown {
    return Object.hasOwn(this.#values, key) ? this.#values[key] : undefined;
  }

  set(key: string, value: unknown): void {
    if (this.#player === undefined) throw new ApiError(400, 'a public route has no player to keep state for');
    this.#changed = true;
    if (value === undefined) {
      const { [key]: _removed, ...rest } = this.#values;
      this.#values = rest;
      return;
    }
    this.#values = { ...this.#values, [key]: jsonCopy(`route state ${key}`, value) };
  }

  all(): Readonly<Record<string, unknown>> {
    return this.#values;
  }

  /** Refuses (413) state beyond MAX_ROUTE_STATE_BYTES before anything of the request is kept. */
  assertWithinBound(): void {
    if (this.#changed) assertJsonWithin("The player's route state", this.#values, MAX_ROUTE_STATE_BYTES);
  }

  commit(): void {
    if (this.#changed && this.#player !== undefined) this.#player.routeState = this.#values;
  }
}
