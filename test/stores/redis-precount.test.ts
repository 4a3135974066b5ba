import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketStore } from '../../src/core/bucket-table.js';
import { StoreSuspension } from '../../src/core/store-engine.js';
import { RedisStore } from '../../src/stores/redis-store.js';
import { everyRouteHarness, everyRouteSession } from '../support/every-route-session.js';
import { RedisServer } from '../support/redis-server.js';

const server = new RedisServer();
const stores: RedisStore[] = [];

beforeAll(() => server.start(), 20_000);
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await server.dispose();
});

/** A Redis engine that notes each count its buckets had to make on their own, after the load, in a round trip more. */
async function redisEngine(prefix: string): Promise<{ engine: RedisStore; countsAfterLoad: () => number }> {
  const engine = await RedisStore.connect(server.url, prefix, { outboxSize: 100, journalSize: 100 });
  stores.push(engine);
  let counts = 0;
  const createBuckets = engine.createBuckets.bind(engine);
  engine.createBuckets = (capacity, categories) => {
    const buckets: BucketStore = createBuckets(capacity, categories);
    const hit = buckets.hit.bind(buckets);
    buckets.hit = (...args) => {
      try {
        return hit(...args);
      } catch (error) {
        if (error instanceof StoreSuspension) counts++;
        throw error;
      }
    };
    return buckets as ReturnType<typeof createBuckets>;
  };
  return { engine, countsAfterLoad: () => counts };
}

describe("the Redis engine counts what the request's plan names, with the load", () => {
  it('answers every route as memory does, each request counted once, in the round trip that loads its records', async () => {
    const memory = await everyRouteSession(everyRouteHarness(undefined));
    const { engine, countsAfterLoad } = await redisEngine('precount:');
    const core = everyRouteHarness(engine);
    engine.shareJournal(core.service.journal);
    await engine.followClock();
    await engine.afterRequest();

    const shared = await everyRouteSession(core);
    expect(shared.answers).toEqual(memory.answers);
    // 401, 404 and 405 too: the plan names their public bucket, and the load script only tells a live token.
    expect(countsAfterLoad()).toBe(0);
  });
});
