import { describe, expect, it } from 'vitest';
import { CoreHarness } from '../../../test/support/core-harness.js';
import type { UserRoute } from './user-route.js';

/** A recording's route: one answer per sector asked by query, the whole body replayed as the server sent it. */
const SECTOR: UserRoute = {
  method: 'GET',
  path: '/api/galaxy/:galaxyId/sector',
  answers: [
    { when: { query: { id: '1' } }, body: { sector: { id: '{{query.id | number}}', name: 'Sol' } } },
    { when: { query: { id: '2' } }, body: { sector: { id: '{{query.id | number}}', name: 'Vega' } } },
    { when: { query: { id: '2', detail: 'full' } }, body: { sector: { id: 2, name: 'Vega', ports: ['Vega Station'] } } },
  ],
};
const STRICT_SECTOR: UserRoute = { ...SECTOR, strictAnswers: true };
/** Answers that changed over the recorded session: the first read, then the one after a move, which then stays. */
const NEWS: UserRoute = {
  method: 'GET',
  path: '/api/news',
  answers: [{ body: { headline: 'first' } }, { body: { headline: 'second' } }, { body: { headline: 'third' } }],
};
/** Chosen by a field of the request's body, with an answer of its own when none matches. */
const DOCK: UserRoute = {
  method: 'POST',
  path: '/api/dock',
  cost: 0,
  response: { docked: false },
  answers: [
    { when: { body: { port: { id: 7 } } }, response: { docked: true } },
    { when: { body: { port: { id: 9 } } }, status: 403, body: { error: 'Port closed', code: 'CLOSED' } },
  ],
};
const MOTD: UserRoute = { method: 'GET', path: '/api/motd', category: 'public', answers: [{ body: { text: 'hello' } }, { body: { text: 'again' } }] };

const get = (core: CoreHarness, path: string, query: string, token?: string, ip?: string) =>
  core.call('GET', path, { query, ...(token === undefined ? {} : { token }), ...(ip === undefined ? {} : { ip }) });

/** The recording's sectors list: it names sectors no answer of the sector route was recorded for. */
const SECTORS: UserRoute = {
  method: 'GET',
  path: '/api/galaxy/:galaxyId/sectors',
  response: {
    sectors: [
      { id: 1, name: 'Sol' },
      { id: 2, name: 'Vega' },
      { id: 13, name: 'Sirius' },
    ],
  },
};
/** Another kind of thing with the id 13 and a name: no sector. */
const FLEET: UserRoute = { method: 'GET', path: '/api/fleets', response: { fleets: [{ id: 13, name: 'Red Wing' }] } };

describe('a generalised answer, given what the recording knows of the id', () => {
  it("takes the fields another route's answer gives an object of that id, of the same kind first", async () => {
    const core = new CoreHarness({ routes: [SECTOR, SECTORS, FLEET] });
    const token = await core.signIn('pilot@example.com');
    const named = await get(core, '/api/galaxy/1/sector', 'id=13', token);
    expect(named).toMatchObject({ status: 200, body: { sector: { id: 13, name: 'Sirius' } } });
    expect(named.headers['x-mock-generalised']).toBe('query id=1');
    // An id no answer holds keeps its neighbour's fields; a recorded answer is left as recorded.
    expect((await get(core, '/api/galaxy/1/sector', 'id=50', token)).body).toEqual({ sector: { id: 50, name: 'Sol' } });
    expect((await get(core, '/api/galaxy/1/sector', 'id=2', token)).body).toEqual({ sector: { id: 2, name: 'Vega' } });
  });

  it('takes nothing where two things of that id differ and neither is of the kind asked for', async () => {
    const ARMADA: UserRoute = { method: 'GET', path: '/api/armadas', response: { armadas: [{ id: 13, name: 'Blue Wing' }] } };
    const core = new CoreHarness({ routes: [SECTOR, FLEET, ARMADA] });
    const token = await core.signIn('pilot@example.com');
    expect((await get(core, '/api/galaxy/1/sector', 'id=13', token)).body).toEqual({ sector: { id: 13, name: 'Sol' } });
  });
});

describe("a route's answers, chosen by what the request sent", () => {
  it('by query, the most specific first, replayed whole (no success added); strict, none holding is a 404 naming what tells them apart', async () => {
    const core = new CoreHarness({ routes: [STRICT_SECTOR] });
    const token = await core.signIn('pilot@example.com');
    expect((await get(core, '/api/galaxy/1/sector', 'id=1', token)).body).toEqual({ sector: { id: 1, name: 'Sol' } });
    expect((await get(core, '/api/galaxy/1/sector', 'id=2', token)).body).toEqual({ sector: { id: 2, name: 'Vega' } });
    expect((await get(core, '/api/galaxy/1/sector', 'detail=full&id=2', token)).body).toEqual({ sector: { id: 2, name: 'Vega', ports: ['Vega Station'] } });
    const missing = await get(core, '/api/galaxy/1/sector', 'id=13', token);
    expect(missing).toMatchObject({
      status: 404,
      body: { error: 'No answer of GET /api/galaxy/:galaxyId/sector matches this request: its answers are told apart by query id, query detail' },
    });
    expect((await get(core, '/api/galaxy/1/sector', 'id=1')).status).toBe(401);
  });

  it('answers a value no answer was recorded for from the nearest answer, reading the request, marked in a header, the journal and the routes listing', async () => {
    const core = new CoreHarness({ routes: [SECTOR] });
    const token = await core.signIn('pilot@example.com');
    const unseen = await get(core, '/api/galaxy/1/sector', 'id=13', token);
    expect(unseen).toMatchObject({ status: 200, body: { sector: { id: 13, name: 'Sol' } } });
    expect(unseen.headers['x-mock-generalised']).toBe('query id=1');
    // The answer that holds most of the conditions sent: detail=full held, only the id is another.
    const detailed = await get(core, '/api/galaxy/1/sector', 'id=13&detail=full', token);
    expect(detailed.headers['x-mock-generalised']).toBe('query id=2');
    expect((await get(core, '/api/galaxy/1/sector', 'id=1', token)).headers['x-mock-generalised']).toBeUndefined();
    const journal = (await core.call('GET', '/__mock/journal', { query: 'path=/api/galaxy/1/sector' })).body as {
      entries: { generalisedFrom: string | null }[];
    };
    expect(journal.entries.map((entry) => entry.generalisedFrom)).toEqual([null, 'query id=2', 'query id=1']);
    await get(core, '/api/galaxy/1/sector', 'id=13', token);
    const { routes } = (await core.call('GET', '/__mock/routes')).body as { routes: { id: string; generalised?: unknown }[] };
    expect(routes.find((route) => route.id === 'GET /api/galaxy/:galaxyId/sector')!.generalised).toEqual([
      { request: 'query id=13', from: 'query id=1', times: 2 },
      { request: 'query id=13', from: 'query id=2', times: 1 },
    ]);
  });

  it('prefers a recorded success to a recorded refusal, and answers 404 when the whole configuration asks for strict answers', async () => {
    const mission: UserRoute = {
      method: 'GET',
      path: '/api/missions/:missionId',
      answers: [
        { when: { params: { missionId: '999' } }, status: 404, response: { error: 'No such mission' } },
        { when: { params: { missionId: '1' } }, response: { missionId: '{{params.missionId}}' } },
      ],
    };
    const lenient = new CoreHarness({ routes: [mission] });
    const token = await lenient.signIn('pilot@example.com');
    expect(await get(lenient, '/api/missions/7', '', token)).toMatchObject({ status: 200, body: { missionId: '7' } });
    const strict = new CoreHarness({ routes: [mission], strictAnswers: true });
    const strictToken = await strict.signIn('pilot@example.com');
    expect((await get(strict, '/api/missions/7', '', strictToken)).status).toBe(404);
    const lenientRoute = new CoreHarness({ routes: [{ ...mission, strictAnswers: false }], strictAnswers: true });
    const lenientToken = await lenientRoute.signIn('pilot@example.com');
    expect((await get(lenientRoute, '/api/missions/7', '', lenientToken)).status).toBe(200);
  });

  it('answers with the same conditions are served in turn to each player, the last repeating', async () => {
    const core = new CoreHarness({ routes: [NEWS] });
    const pilot = await core.signIn('pilot@example.com');
    const other = await core.signIn('other@example.com');
    const headline = async (token: string) => ((await get(core, '/api/news', '', token)).body as { headline: string }).headline;
    expect([await headline(pilot), await headline(pilot), await headline(other), await headline(pilot), await headline(pilot)]).toEqual([
      'first',
      'second',
      'first',
      'third',
      'third',
    ]);
  });

  it('on a public route, in turn to each client address', async () => {
    const core = new CoreHarness({ routes: [MOTD] });
    const text = async (ip: string) => ((await get(core, '/api/motd', '', undefined, ip)).body as { text: string }).text;
    expect([await text('203.0.113.5'), await text('203.0.113.5'), await text('203.0.113.6'), await text('203.0.113.5')]).toEqual([
      'hello',
      'again',
      'hello',
      'again',
    ]);
  });

  it("by a field of the body; a refusal replayed as recorded; the route's own answer when none holds", async () => {
    const core = new CoreHarness({ routes: [DOCK] });
    const token = await core.signIn('pilot@example.com');
    const dock = (port: unknown) => core.call('POST', '/api/dock', { token, body: { port } });
    expect((await dock({ id: 7 })).body).toEqual({ success: true, docked: true });
    expect(await dock({ id: 9 })).toMatchObject({ status: 403, body: { error: 'Port closed', code: 'CLOSED' } });
    expect((await dock({ id: 8 })).body).toEqual({ success: true, docked: false });
    expect((await dock({ id: 7, name: 'x' })).body).toEqual({ success: true, docked: false });
  });

  it('by a parameter of the path', async () => {
    const byId: UserRoute = {
      method: 'GET',
      path: '/api/sectors/:sectorId',
      answers: [
        { when: { params: { sectorId: '13' } }, body: { name: 'Kepler' } },
        { when: { params: { sectorId: '2' } }, body: { name: 'Vega' } },
      ],
    };
    const core = new CoreHarness({ routes: [byId] });
    const token = await core.signIn('pilot@example.com');
    expect((await get(core, '/api/sectors/13', '', token)).body).toEqual({ name: 'Kepler' });
    expect((await get(core, '/api/sectors/2', '', token)).body).toEqual({ name: 'Vega' });
    const unseen = await get(core, '/api/sectors/7', '', token);
    expect([unseen.body, unseen.headers['x-mock-generalised']]).toEqual([{ name: 'Kepler' }, 'path :sectorId=13']);
    const wrong = { method: 'GET', path: '/api/sectors/:sectorId', answers: [{ when: { params: { id: '1' } }, body: {} }] } as UserRoute;
    expect(() => new CoreHarness({ routes: [wrong] })).toThrow('routes/0/answers/0/when/params/id is no parameter of the path, which has :sectorId');
  });

  it('names a when that is not one: a query parameter that is not text', () => {
    const route = { method: 'GET', path: '/api/x', answers: [{ when: { query: { id: 3 } }, body: {} }] } as unknown as UserRoute;
    expect(() => new CoreHarness({ routes: [route] })).toThrow('routes/0/answers/0/when/query/id must be a string: a query parameter is text');
  });
});
