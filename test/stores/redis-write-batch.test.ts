import { Redis } from 'iovalkey';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisWriteBatch } from '../../src/stores/redis-write-batch.js';
import { RedisServer } from '../support/redis-server.js';

const server = new RedisServer();
let redis: Redis;

beforeAll(async () => {
  await server.start();
  redis = new Redis(server.url, { lazyConnect: true });
  await redis.connect();
}, 20_000);

afterAll(async () => {
  redis?.disconnect();
  await server.dispose();
});

const execs = async () => Number(/cmdstat_exec:calls=(\d+)/.exec(await redis.info('commandstats'))?.[1] ?? 0);

describe('RedisWriteBatch', () => {
  it('sends the writes added in one turn of the event loop as one MULTI, and answers each once it was executed', async () => {
    const batch = new RedisWriteBatch(redis, (multi) => multi.set('finished', 'yes'));
    const before = await execs();
    const written = ['a', 'b', 'c'].map((key) => batch.add((multi) => multi.set(key, key)));
    expect(batch.pending).toBeDefined();
    await Promise.all(written);
    expect(await execs()).toBe(before + 1);
    expect(await redis.mget('a', 'b', 'c', 'finished')).toEqual(['a', 'b', 'c', 'yes']);
  });

  it('sends the batch being filled before a write alone, and a request with nothing of its own waits for both', async () => {
    const batch = new RedisWriteBatch(redis, () => {});
    const added = batch.add((multi) => multi.set('order', 'batched'));
    let seen: string | null = null;
    const alone = batch.alone(async () => {
      seen = await redis.get('order');
      await redis.set('order', 'alone');
    });
    const waited = batch.pending;
    await Promise.all([added, alone, waited]);
    expect(seen).toBe('batched');
    expect(await redis.get('order')).toBe('alone');
    expect(batch.pending).toBeUndefined();
  });

  it('rejects every request of a batch the server refused', async () => {
    const batch = new RedisWriteBatch(redis, () => {});
    await redis.set('text', 'not a list');
    const first = batch.add((multi) => multi.set('fine', '1'));
    const second = batch.add((multi) => multi.lpush('text', 'x'));
    await expect(first).rejects.toThrow(/WRONGTYPE/);
    await expect(second).rejects.toThrow(/WRONGTYPE/);
  });
});
