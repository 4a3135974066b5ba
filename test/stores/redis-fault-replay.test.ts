import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, useCli } from '../support/cli.js';
import { call } from '../support/http.js';
import { RedisServer } from '../support/redis-server.js';

/** A seeded fault draw is made once per request, before its state is read: Redis, which makes a counted read wait, replays it as memory does. */

const cli = useCli();
const redis = new RedisServer();
const FAULTS = ['--fault', 'GET /api/player 503@0.3', '--fault', 'GET /api/player latency:1-5@0.5', '--fault-seed', '424242'];
const READS = 40;

beforeAll(() => redis.start(), 20_000);
afterAll(() => redis.dispose());

/** The statuses and fault marks of READS counted reads of one player, one after another. */
async function faultSequence(storeArgs: readonly string[]): Promise<string[]> {
  const mock = await startMock(cli, ['--port', '0', ...storeArgs, ...FAULTS]);
  const seeded = await call(`${mock.url}/__mock/players`, { json: { email: 'replay@example.com' } });
  const { authToken } = seeded.body as { authToken: string };
  const sequence: string[] = [];
  for (let read = 0; read < READS; read++) {
    const answer = await call(`${mock.url}/api/player`, { headers: { authorization: `Bearer ${authToken}` } });
    sequence.push(String(answer.status));
  }
  const journal = await call(`${mock.url}/__mock/journal?limit=${READS}&path=/api/player`);
  const entries = (journal.body as { entries: { fault: string[] | null }[] }).entries;
  return [...sequence, ...entries.map((entry) => (entry.fault ?? []).join('+') || 'none')];
}

describe('a seeded fault sequence', () => {
  it('is the same on --store redis as in memory: a read waiting for its bucket on Redis does not draw again', async () => {
    const inMemory = await faultSequence([]);
    const onRedis = await faultSequence(['--store', redis.url, '--store-prefix', 'replay:']);
    expect(inMemory.filter((mark) => mark === '503').length).toBeGreaterThan(3);
    expect(onRedis).toEqual(inMemory);
  }, 60_000);
});
