import { Redis } from 'iovalkey';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisServer } from '../../test/support/redis-server.js';
import { RedisTurnPipeline, type SharedScript } from './redis-turn-pipeline.js';

const server = new RedisServer();
let redis: Redis;

/** Answers, per call, its key's value with its own argument and the shared one. */
const ECHO: SharedScript = { command: 'echoCalls', shared: ['shared'] };
/** Fails on the server, whatever its calls. */
const REFUSED: SharedScript = { command: 'refuseCalls', shared: [] };

beforeAll(async () => {
  await server.start();
  redis = new Redis(server.url, { lazyConnect: true });
  redis.defineCommand('echoCalls', {
    lua: `local answers = {}
for call = 1, #KEYS do answers[call] = {redis.call('GET', KEYS[call]) or false, ARGV[1 + call], ARGV[1]} end
return answers`,
  });
  redis.defineCommand('refuseCalls', { lua: `return redis.error_reply('refused')` });
  await redis.connect();
}, 20_000);

afterAll(async () => {
  redis?.disconnect();
  await server.dispose();
});

const scriptCalls = async () => {
  const stats = await redis.info('commandstats');
  const calls = (name: string) => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
  return calls('eval') + calls('evalsha');
};

/** Joins one call of `key` and `arg` to this turn's command of `script`: the whole answer, and the call's place in it. */
function joined(turn: RedisTurnPipeline, script: SharedScript, key: string, arg: string) {
  let place = -1;
  const answer = turn.join(script, (calls) => {
    place = calls.calls;
    calls.keys.push(key);
    calls.args.push(arg);
  });
  return { answer, place: () => place };
}

describe('RedisTurnPipeline', () => {
  it('sends the calls of a shared script made in one turn of the event loop as one command, and answers them all with the whole answer, each call told its place in it', async () => {
    const turn = new RedisTurnPipeline(redis);
    await redis.mset('a', 'A', 'b', 'B');
    const before = await scriptCalls();
    const calls = [joined(turn, ECHO, 'a', 'first'), joined(turn, ECHO, 'missing', 'second'), joined(turn, ECHO, 'b', 'third')];
    expect(calls.map((call) => call.place())).toEqual([0, 1, 2]);
    const answers = await Promise.all(calls.map((call) => call.answer));
    for (const answer of answers)
      expect(answer).toEqual([
        ['A', 'first', 'shared'],
        [null, 'second', 'shared'],
        ['B', 'third', 'shared'],
      ]);
    expect(await scriptCalls()).toBe(before + 1);
  });

  it('answers a command sent alone in the same turn on its own, and rejects every call of a script the server refused', async () => {
    const turn = new RedisTurnPipeline(redis);
    await redis.set('text', 'value');
    const alone = turn.send<string>((pipeline) => pipeline.get('text'));
    const calls = [joined(turn, REFUSED, 'a', 'first'), joined(turn, REFUSED, 'b', 'second')];
    expect(await alone).toBe('value');
    for (const call of calls) await expect(call.answer).rejects.toThrow(/refused/);
  });
});
