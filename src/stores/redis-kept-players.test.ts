import { describe, expect, it } from 'vitest';
import { refill, spend } from '../core/action-points.js';
import { resolveOptions } from '../core/options.js';
import { ActiveVariants } from '../core/active-variants.js';
import { newPlayer } from '../core/new-player.js';
import type { Player } from '../core/store.js';
import { RedisKeptPlayers } from './redis-kept-players.js';
import { playerRecord } from './redis-records.js';
import { StoreChanges } from './store-changes.js';

const options = resolveOptions({ version: 'test', actionPoints: { start: 10, max: 10, refillIntervalMs: 60_000 } });
const T = 1_000_000;
const variants = ActiveVariants.from([]).current;

/** A player as loaded from the server at T, and the ids a request touching it would write. */
function loaded(points = 10): { kept: RedisKeptPlayers; player: Player; writes: () => string[] } {
  const player = newPlayer('kept@example.com', options.actionPoints, T);
  player.actionPoints = { points, accruedAt: T };
  const kept = new RedisKeptPlayers();
  kept.kept(player.id, player, playerRecord(player));
  const writes = () => {
    const observer = new StoreChanges();
    observer.read('players', player.id, player);
    return [...kept.take(observer.take()).keys()];
  };
  return { kept, player, writes };
}

describe('RedisKeptPlayers', () => {
  it('writes nothing for a read of a full bar, which moves only its refill time', () => {
    const { player, writes } = loaded();
    refill(player.actionPoints, options.actionPoints, T + 5_000);
    expect(player.actionPoints.accruedAt).toBe(T + 5_000);
    expect(writes()).toEqual([]);
  });

  it('writes a spend, a refill that gains a point, and a full bar with anything else changed', () => {
    const spent = loaded();
    spend(spent.player.actionPoints, 1, options.actionPoints, variants, T + 5_000);
    expect(spent.writes()).toEqual([spent.player.id]);

    const refilled = loaded(5);
    refill(refilled.player.actionPoints, options.actionPoints, T + 60_000);
    expect(refilled.writes()).toEqual([refilled.player.id]);

    const renamed = loaded();
    refill(renamed.player.actionPoints, options.actionPoints, T + 5_000);
    renamed.player.inEncounter = true;
    expect(renamed.writes()).toEqual([renamed.player.id]);
  });

  it('writes points set again to the same value, as their refill interval restarts', () => {
    const { player, writes } = loaded(5);
    player.actionPoints = { points: 5, accruedAt: T + 5_000 };
    expect(writes()).toEqual([player.id]);
    // Then known as written: the same record again is no change.
    expect(writes()).toEqual([]);
  });

  it('writes a refill restarted by a clock set back', () => {
    const { player, writes } = loaded(5);
    refill(player.actionPoints, options.actionPoints, T - 5_000);
    expect(writes()).toEqual([player.id]);
  });
});
