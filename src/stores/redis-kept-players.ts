import type { ActionPoints } from '../core/action-points.js';
import type { Player } from '../core/store.js';
import { playerRecord } from './redis-records.js';
import type { ChangeSet } from './store-changes.js';

/** Players to write, by id, as serialized when taken (undefined: deleted). */
export type PlayerWrites = Map<string, { record: string; email: string; createdAt: number } | undefined>;

/** What `take` answers for a request that touched no player: only read. */
const NO_WRITES: PlayerWrites = new Map();

/** A player's record as last read from or written to the server here, and the points object then held. */
interface Kept {
  record: string;
  actionPoints: ActionPoints;
  points: number;
  accruedAt: number;
}

/**
 * What the server holds of each player, as far as this process knows: a request that changed nothing of a
 * player writes nothing. Nor does a read that only moved a full bar's refill time: refill sets `accruedAt`
 * to now on every read of a full bar (and on every spend before it counts), so that value is never used.
 */
export class RedisKeptPlayers {
  readonly #kept = new Map<string, Kept>();

  /** The player as now held, after its record was read from or written to the server. */
  kept(id: string, player: Player | undefined, record: string | undefined): void {
    if (player === undefined || record === undefined) {
      this.#kept.delete(id);
      return;
    }
    const { actionPoints } = player;
    this.#kept.set(id, { record, actionPoints, points: actionPoints.points, accruedAt: actionPoints.accruedAt });
  }

  forget(ids: Iterable<string>): void {
    for (const id of ids) this.#kept.delete(id);
  }

  clear(): void {
    this.#kept.clear();
  }

  /**
   * The records of the players a request changed, taken out of `changes` as they are now: a record loaded
   * for a later request may overwrite the same object before the write goes out.
   */
  take(changes: ChangeSet): PlayerWrites {
    if (changes.players.size === 0) return NO_WRITES;
    const writes: PlayerWrites = new Map();
    for (const [id, player] of changes.players) {
      if (player === undefined) {
        this.#kept.delete(id);
        writes.set(id, undefined);
        continue;
      }
      const kept = this.#kept.get(id);
      if (kept !== undefined && isUnchanged(player, kept)) continue;
      const record = playerRecord(player);
      if (kept?.record === record) continue;
      this.kept(id, player, record);
      writes.set(id, { record, email: player.email, createdAt: player.createdAt });
    }
    changes.players.clear();
    return writes;
  }
}

/**
 * As kept, but for a refill time moved forward in place with the points unchanged: refill does that to a full bar
 * alone (a partial one moves it only with the points). An explicit set replaces the object, and is written. The
 * record is made with the kept refill time put back for the while (one serialization, where most reads change nothing).
 */
function isUnchanged(player: Player, kept: Kept): boolean {
  const { actionPoints } = player;
  if (actionPoints !== kept.actionPoints || actionPoints.points !== kept.points || actionPoints.accruedAt < kept.accruedAt) return false;
  const accruedAt = actionPoints.accruedAt;
  actionPoints.accruedAt = kept.accruedAt;
  try {
    return playerRecord(player) === kept.record;
  } finally {
    actionPoints.accruedAt = accruedAt;
  }
}
