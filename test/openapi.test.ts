import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../src/core/body.js';
import { chooseVariants } from '../src/core/variant-choice.js';
import type { UserRoute } from '../src/core/user-routes/user-route.js';
import {
  BEARER_SCHEME,
  HEADERS,
  OPENAPI_PATH,
  openApiDocument,
  RATE_LIMITS,
  ROUTES,
  type ControlRouteSummary,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../src/spec/index.js';
import { CoreHarness, GAME_ORIGIN, type CallOptions } from './support/core-harness.js';
import { dereference, responseChecker, withoutExamples } from './support/openapi-checker.js';
import { propertyParameters } from './support/property.js';

const VERSION = '1.2.3';
/** The mock as it starts, every variant at once, and each group's other choice: the document must follow each. */
const VARIANT_SELECTIONS: [string, string[]][] = [
  ['default', []],
  ['--variant all', [...chooseVariants(['all']).names]],
  ['the other choices', ['reset-seconds-remaining', 'retry-after-minutes', 'wrong-code-422', 'disposable-422', 'unverified-ship-422', 'ship-payload-name']],
];
const MINE: UserRoute = { method: 'POST', path: '/api/mine', category: 'gameplay', cost: 2 };

/** A mock with one configured gameplay route, and ship creation costing a point so that 403 for points can happen. */
function newHarness(variants: string[] = []): CoreHarness {
  return new CoreHarness({ routes: [MINE], actionCosts: { createShip: 1 }, variants });
}

async function served(harness: CoreHarness): Promise<OpenApiDocument> {
  const response = await harness.call('GET', OPENAPI_PATH);
  expect(response.status).toBe(200);
  return JSON.parse(JSON.stringify(response.body)) as OpenApiDocument;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, alone and as a mock serves it, without the 3.0-only nullable keyword', async () => {
    for (const document of [openApiDocument({ version: VERSION }), await served(newHarness())]) {
      const validator = new Validator();
      expect(await validator.validate(structuredClone(document))).toEqual({ valid: true });
      expect(validator.version).toBe('3.1');
      expect(JSON.stringify(document)).not.toContain('"nullable"');
    }
  });

  it('has every route of the spec with its method, security, rate-limit category and the statuses of its shape', () => {
    const { paths } = openApiDocument({ version: VERSION });
    expect(Object.values(paths).flatMap((item) => Object.values(item))).toHaveLength(ROUTES.length);
    for (const route of ROUTES) {
      const operation = paths[route.path]?.[route.method.toLowerCase() as 'get' | 'post'];
      expect(operation?.operationId).toBe(route.id);
      expect(operation?.security).toEqual(route.auth === 'none' ? [] : [{ [BEARER_SCHEME]: [] }]);
      expect(operation?.['x-rate-limit']).toMatchObject({ category: route.category, limit: RATE_LIMITS[route.category].limit });
      const statuses = Object.keys(operation!.responses);
      expect(statuses.includes('401')).toBe(route.auth !== 'none');
      expect(statuses.includes('409')).toBe(route.category === 'gameplay');
      expect(statuses).toEqual(expect.arrayContaining(['200', '429', '500']));
      expect(operation!.responses['429']!.headers).toHaveProperty([HEADERS.retryAfter]);
    }
  });

  it("is served at GET /__mock/openapi.json as the document of the mock's routes, listed in capabilities, under the loopback guard", async () => {
    const harness = newHarness();
    const capabilities = (await harness.call('GET', '/__mock/capabilities')).body as { routes: ControlRouteSummary[] };
    expect(capabilities.routes).toContainEqual(expect.objectContaining({ method: 'GET', path: OPENAPI_PATH }));
    const document = await served(harness);
    const fromSummaries = openApiDocument({
      version: VERSION,
      configuredRoutes: [{ ...MINE, category: 'gameplay', source: 'config' }],
      controlRoutes: capabilities.routes,
      shipPayload: 'any',
      mockRoutes: true,
    });
    // The served document adds what each control route reads (its body's schema, its query), which capabilities does not list.
    const withoutInput = (paths: OpenApiDocument['paths']) =>
      Object.fromEntries(
        Object.entries(paths).map(([path, item]) => [
          path,
          Object.fromEntries(
            Object.entries(item).map(([method, { parameters, requestBody, ...rest }]) => [
              method,
              path.startsWith('/__mock/') ? rest : { parameters, requestBody, ...rest },
            ]),
          ),
        ]),
      );
    expect(withoutInput(withoutExamples(document).paths)).toEqual(withoutInput(fromSummaries.paths));
    expect({ ...document, paths: {} }).toEqual({ ...fromSummaries, paths: {} });
    expect(document.paths['/__mock/clock']?.post?.requestBody).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { properties: { advanceMs: { type: ['integer', 'null'], minimum: 0 } } } } },
    });
    expect(document.paths['/__mock/journal']?.get?.parameters?.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['status', 'path', 'limit', 'cursor']),
    );
    expect(JSON.stringify(document)).not.toContain('"nullable"');
    expect(document.paths['/api/player/ship']?.get?.['x-mock-defined']).toBe(true);
    expect(document.paths).toMatchObject(openApiDocument({ version: VERSION }).paths);
    expect(document.paths[MINE.path]?.post?.['x-mock-defined']).toBe(true);
    const controlOperations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/__mock/'))
      .flatMap(([, item]) => Object.values(item));
    expect(controlOperations).toHaveLength(capabilities.routes.length);
    for (const operation of controlOperations) expect(operation['x-mock-defined']).toBe(true);
    const fromBrowser = (peer: string, host: string) => harness.service.handle({ method: 'GET', path: OPENAPI_PATH, headers: { host }, ip: peer, peer });
    expect((await fromBrowser('127.0.0.1', 'localhost:8080')).body).toEqual(document);
    expect((await fromBrowser('203.0.113.9', 'localhost:8080')).status).toBe(403);
    expect((await fromBrowser('127.0.0.1', 'evil.example:8080')).status).toBe(403);
  });
});

/** Players straight from the control API: `{authToken, player: {id}}`. */
async function seedPlayer(harness: CoreHarness, email: string, fields: Record<string, unknown> = {}) {
  const response = await harness.call('POST', '/__mock/players', { body: { email, ...fields } });
  return response.body as { authToken: string; player: { id: string } };
}

describe("the mock's answers, against the document it serves", () => {
  it('answer every status the document declares for an operation (except 500), each with the declared body and headers', async () => {
    const harness = newHarness();
    const document = await served(harness);
    const check = responseChecker(document);
    const seen = new Map<OpenApiOperation, Set<string>>();
    let ip = 0;
    const call = async (method: string, path: string, options: CallOptions = {}, times = 1) => {
      for (let i = 0; i < times; i++) {
        const response = await harness.call(method, path, { ip: `192.0.2.${ip}`, ...options });
        const operation = check(method, path, response);
        if (operation !== undefined) seen.set(operation, (seen.get(operation) ?? new Set()).add(String(response.status)));
      }
      ip++;
    };
    const oversized = { rawBody: JSON.stringify({ email: 'a'.repeat(MAX_BODY_BYTES) }) };
    const [verified, miner, unverified, fighting, spent, reader] = [
      await seedPlayer(harness, 'verified@example.com'),
      await seedPlayer(harness, 'miner@example.com'),
      await seedPlayer(harness, 'unverified@example.com', { emailVerified: false }),
      await seedPlayer(harness, 'fighting@example.com', { inEncounter: true }),
      await seedPlayer(harness, 'spent@example.com', { actionPoints: 0 }),
      await seedPlayer(harness, 'reader@example.com'),
    ];

    await call('GET', '/health', {}, RATE_LIMITS.public.limit + 1);
    for (const path of ['/api/auth/register', '/api/auth/verify-email']) {
      await call('POST', path, { body: { email: 'not an email', otp: '12' } });
      await call('POST', path, oversized);
      await call('POST', path, { body: {} }, RATE_LIMITS.auth.limit + 1);
    }
    await call('POST', '/api/auth/register', { body: { email: 'new@example.com' } });
    await call('POST', '/api/auth/verify-email', { body: { email: 'new@example.com', otp: harness.lastCode('new@example.com') } });
    await call('GET', '/api/player');
    await call('GET', '/api/player', { token: verified.authToken }, RATE_LIMITS.read.limit + 1);
    await call('GET', '/api/player/ship');
    await call('GET', '/api/player/ship', { token: miner.authToken });
    await harness.call('POST', '/api/player/ship', { token: reader.authToken, body: { shipName: 'Lantern' } });
    await call('GET', '/api/player/ship', { token: reader.authToken }, RATE_LIMITS.read.limit + 1);
    for (const path of ['/api/player/ship', MINE.path]) {
      await call('POST', path);
      await call('POST', path, { token: fighting.authToken, body: { name: 'Nova' } });
      await call('POST', path, { token: spent.authToken, body: { name: 'Nova' } });
    }
    await call('POST', '/api/player/ship', { token: unverified.authToken, body: { name: 'Nova' } });
    await call('POST', '/api/player/ship', { token: verified.authToken, ...oversized });
    await call('POST', '/api/player/ship', { token: verified.authToken, body: { name: 'Comet' } }, RATE_LIMITS.gameplay.limit + 1);
    // A configured route reads an optional JSON body: one that is not JSON, or too large, is refused.
    await call('POST', MINE.path, { token: miner.authToken, rawBody: '[1]' });
    await call('POST', MINE.path, { token: miner.authToken, ...oversized });
    await call('POST', MINE.path, { token: miner.authToken }, RATE_LIMITS.gameplay.limit + 1);

    const operations = Object.entries(document.paths)
      .filter(([path]) => !path.startsWith('/__mock/'))
      .flatMap(([, item]) => Object.values(item));
    const declared = Object.fromEntries(
      operations.map((operation) => [operation.operationId, Object.keys(operation.responses).filter((status) => status !== '500')]),
    );
    const answered = Object.fromEntries([...seen].map(([operation, statuses]) => [operation.operationId, [...statuses].sort()]));
    expect(answered).toEqual(declared);
  });

  it.each(VARIANT_SELECTIONS)(
    'answer any request as the document says: the declared status, body and headers, or 404 and 405 as described (%s)',
    async (_name, variants) => {
      const harness = newHarness(variants);
      const document = await served(harness);
      const check = responseChecker(document);
      const tokens = await Promise.all(
        [{}, { emailVerified: false }, { inEncounter: true }, { actionPoints: 0 }].map(
          async (fields, index) => (await seedPlayer(harness, `p${index}@example.com`, fields)).authToken,
        ),
      );
      const documented = Object.keys(document.paths).filter((path) => !path.startsWith('/__mock'));
      const path = fc.oneof(
        fc.constantFrom(...documented),
        fc.webPath().filter((candidate) => !candidate.startsWith('/__mock')),
      );
      const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
      const body = fc.option(
        fc.oneof(
          fc.record(
            { email: fc.oneof(fc.emailAddress(), fc.string()), otp: fc.stringMatching(/^\d{6}$/), name: fc.string({ maxLength: 40 }) },
            { requiredKeys: [] },
          ),
          fc.jsonValue(),
        ),
        { nil: undefined },
      );
      const caller = fc.record({
        token: fc.option(fc.oneof(fc.constantFrom(...tokens), fc.uuid()), { nil: undefined }),
        origin: fc.option(fc.constantFrom(GAME_ORIGIN, 'https://elsewhere.example'), { nil: undefined }),
        ip: fc.constantFrom('198.51.100.1', '198.51.100.2'),
      });
      await fc.assert(
        fc.asyncProperty(method, path, body, caller, async (verb, target, payload, { token, origin, ip }) => {
          const options: CallOptions = {
            ip,
            ...(payload === undefined ? {} : { body: payload }),
            ...(token === undefined ? {} : { token }),
            ...(origin === undefined ? {} : { origin }),
          };
          check(verb, target, await harness.call(verb, target, options), origin);
        }),
        propertyParameters(`mock answers match the OpenAPI document (${_name})`, 300),
      );
    },
  );

  it('names the unit each variant chose in its header, lists the variants played, and is the default document again once they are switched off', async () => {
    const harness = newHarness(['reset-epoch-milliseconds', 'retry-after-minutes', 'nextrefill-in-minutes']);
    const played = await served(harness);
    expect(played.components.headers['x-ratelimit-reset']!.description).toContain('X-RateLimit-Reset in Unix epoch milliseconds');
    expect(played.components.headers['retry-after']!.description).toContain('Retry-After in whole minutes, rounded up');
    expect(played.components.headers['x-actionpoints-nextrefill']!.description).toContain('in minutes, rounded up');
    expect(played.info.description).toContain('- `reset-epoch-milliseconds`: X-RateLimit-Reset in Unix epoch milliseconds');
    const switched = await harness.call('PUT', '/__mock/variants', { body: { variants: [] } });
    expect(switched.status).toBe(200);
    // Each mock's examples are its own answers: the players and tokens in them differ.
    expect(withoutExamples(await served(harness))).toEqual(withoutExamples(await served(newHarness())));
  });

  it('declares the statuses fault rules inject on the operations they match, for as long as the rules are held', async () => {
    const harness = newHarness();
    const before = await served(harness);
    expect((await harness.call('POST', '/__mock/faults', { body: { kind: 'status', status: 503, path: '/api/player*' } })).status).toBe(200);
    expect((await harness.call('POST', '/__mock/faults', { body: { kind: 'status', status: 502, method: 'POST', path: '/api/mine' } })).status).toBe(200);
    const faulty = await served(harness);
    expect(Object.keys(faulty.paths['/api/player']!.get!.responses)).toContain('503');
    expect(Object.keys(faulty.paths['/api/player/ship']!.post!.responses)).toContain('503');
    expect(Object.keys(faulty.paths[MINE.path]!.post!.responses)).toContain('502');
    expect(Object.keys(faulty.paths[MINE.path]!.post!.responses)).not.toContain('503');
    expect(Object.keys(faulty.paths['/health']!.get!.responses)).not.toContain('503');
    const check = responseChecker(faulty);
    const { authToken } = await seedPlayer(harness, 'faulty@example.com');
    const answer = await harness.call('GET', '/api/player', { token: authToken });
    expect(answer.status).toBe(503);
    check('GET', '/api/player', answer);
    expect((await harness.call('DELETE', '/__mock/faults')).status).toBe(200);
    expect(await served(harness)).toEqual(before);
  });

  it("take any JSON object as a ship, as the document's default request schema does", async () => {
    const harness = newHarness();
    const { requestBody } = dereference(await served(harness)).paths['/api/player/ship']!.post!;
    const accepts = new Ajv2020({ strict: true, keywords: ['x-mock-defined'] }).compile(requestBody!.content['application/json']!.schema);
    let count = 0;
    await fc.assert(
      fc.asyncProperty(fc.object({ maxDepth: 2 }), async (payload) => {
        const { authToken } = await seedPlayer(harness, `pilot${count++}@example.com`);
        const response = await harness.call('POST', '/api/player/ship', { token: authToken, body: payload });
        expect(accepts(payload)).toBe(true);
        expect(response.status, JSON.stringify(payload)).toBe(200);
      }),
      propertyParameters('any ship payload: mock and document agree', 100),
    );
  });

  it("accept a ship name exactly when the document's request schema does, as variant ship-payload-name", async () => {
    const harness = newHarness(['ship-payload-name']);
    const { requestBody } = dereference(await served(harness)).paths['/api/player/ship']!.post!;
    const accepts = new Ajv2020({ strict: true, keywords: ['x-mock-defined'] }).compile(requestBody!.content['application/json']!.schema);
    const unit = fc.constantFrom('a', 'Z', '7', 'é', '中', ' ', '\t', '\n', '\u00a0', '\u2028', '\ufeff');
    // Every length up to past the limit equally often, so that the boundary is always exercised.
    const name = fc.integer({ min: 0, max: 40 }).chain((length) => fc.string({ unit, minLength: length, maxLength: length }));
    let count = 0;
    await fc.assert(
      fc.asyncProperty(name, async (shipName) => {
        const { authToken } = await seedPlayer(harness, `captain${count++}@example.com`);
        const response = await harness.call('POST', '/api/player/ship', { token: authToken, body: { name: shipName } });
        expect([200, 400]).toContain(response.status);
        expect(response.status === 200, JSON.stringify(shipName)).toBe(accepts({ name: shipName }));
      }),
      propertyParameters('ship names: mock and document agree', 300),
    );
  });
});
