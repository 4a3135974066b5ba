import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { controlAnswerSchema, type JsonControlRouteKey } from '../src/spec/control-responses.js';
import { CONTROL_ROUTES, controlPath } from '../src/spec/control-routes.js';
import { CoreHarness } from './support/core-harness.js';

const EMAIL = 'pilot@example.com';

interface ControlCall {
  path?: string;
  query?: string;
  body?: unknown;
}

/**
 * One call of every control route that answers JSON, in an order that leaves something in every listing
 * before it is read (a ship, a fault met, a seed of variants). A route added to the declaration and not
 * called here fails to compile.
 */
const CALLS: Readonly<Record<JsonControlRouteKey, ControlCall>> = {
  capabilities: {},
  setClock: { body: { frozen: true } },
  clock: {},
  createPlayer: { body: { email: EMAIL, ship: { name: 'Kestrel' } } },
  setActionPoints: { path: controlPath('setActionPoints', { id: EMAIL }), body: { points: 1 } },
  startEncounter: { path: controlPath('startEncounter', { id: EMAIL }) },
  endEncounter: { path: controlPath('endEncounter', { id: EMAIL }) },
  players: {},
  outbox: {},
  buckets: {},
  setBucket: { body: { category: 'auth', key: '203.0.113.9', count: 2, resetAt: '2999-01-01T00:00:00.000Z' } },
  journal: {},
  journalCount: {},
  journalHar: {},
  removeJournal: { query: 'path=/nowhere' },
  addFault: { body: { kind: 'latency', minMs: 10, maxMs: 20, path: '/api/nowhere' } },
  faults: {},
  reseedFaults: { body: { seed: 7 } },
  removeFault: { path: controlPath('removeFault', { id: 'f1' }) },
  clearFaults: {},
  scenarios: {},
  applyScenario: { path: controlPath('applyScenario', { name: 'fighter-encounter' }), body: { player: EMAIL } },
  setVariants: { body: { variants: ['random:7'] } },
  variants: {},
  putRoute: { body: { method: 'GET', path: '/api/news/:id', response: { headline: '{{params.id}}' } } },
  routes: {},
  openApi: {},
  removeRoute: { path: controlPath('removeRoute', { id: 'GET /api/news/:id' }) },
  removePlayers: { query: `email=${EMAIL}&email=reader@example.com` },
  loadWorld: { body: { players: [{ email: 'second@example.com' }] } },
  clearBuckets: {},
  reset: {},
};

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats.default(ajv);

describe('the control API against its declaration', () => {
  const harness = new CoreHarness();

  beforeAll(async () => {
    // A code in the outbox, a bucket, and journal entries with unknown fields and a fault met.
    await harness.call('POST', '/api/auth/register', { body: { email: 'reader@example.com', nickname: 'r' } });
    await harness.call('POST', CONTROL_ROUTES.addFault.pattern, { body: { text: 'GET /health 503' } });
    await harness.call('GET', '/health');
  });

  it('answers every JSON route with a body its declared JSON Schema accepts, and no field it does not declare', async () => {
    const problems: string[] = [];
    const bodies = new Map<JsonControlRouteKey, unknown>();
    for (const [key, call] of Object.entries(CALLS) as [JsonControlRouteKey, ControlCall][]) {
      const { method, pattern } = CONTROL_ROUTES[key];
      const path = call.path ?? pattern;
      const answer = await harness.call(method, path, {
        ...(call.body === undefined ? {} : { body: call.body }),
        ...(call.query === undefined ? {} : { query: call.query }),
      });
      bodies.set(key, answer.body);
      const validate = ajv.compile(controlAnswerSchema(key)!);
      if (answer.status !== 200) problems.push(`${key}: ${method} ${path} answered ${answer.status} ${JSON.stringify(answer.body)}`);
      else if (!validate(answer.body)) problems.push(`${key}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    expect(problems).toEqual([]);
    // The entries of the listings were there to be checked, their optional and nullable fields filled.
    expect(bodies.get('outbox')).toMatchObject({ messages: [expect.anything()] });
    expect(bodies.get('players')).toMatchObject({ players: [{ ship: { name: 'Kestrel' } }] });
    expect(bodies.get('buckets')).toMatchObject({ buckets: [expect.anything()] });
    expect(bodies.get('journal')).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ unknownFields: ['nickname'] })]) });
    expect(bodies.get('journal')).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ fault: [expect.any(String)] })]) });
    expect(bodies.get('faults')).toMatchObject({
      faults: [
        { kind: 'status', status: 503 },
        { kind: 'latency', minMs: 10 },
      ],
    });
    expect(bodies.get('variants')).toMatchObject({ seed: 7 });
    expect(bodies.get('removePlayers')).toMatchObject({ removed: { players: 1, tokens: 1, codes: 1, messages: 1 } });
  });
});

describe('the dashboard', () => {
  it('declares no types of its own for the answers it reads: they come from the declaration', () => {
    const sources = readdirSync(new URL('../dashboard/', import.meta.url)).filter((name) => name.endsWith('.ts') && name !== 'bundle.ts');
    const ownTypes = sources.flatMap((name) =>
      [...readFileSync(new URL(`../dashboard/${name}`, import.meta.url), 'utf8').matchAll(/^(?:export )?(?:interface (\w+)|type (\w+) = \{)/gm)]
        .map((match) => `${name}: ${match[1] ?? match[2]}`)
        .filter((found) => found !== 'control-client.ts: ControlCall'),
    );
    expect(ownTypes).toEqual([]);
  });
});
