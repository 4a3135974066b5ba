import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMockConfig } from '../src/index.js';
import { exampleAnswers, type SampleService } from '../src/core/control/example-session.js';
import { compileUserRoutes } from '../src/core/user-routes/compile-routes.js';
import type { ServiceOptions } from '../src/core/options.js';
import { CONTROL_PREFIX, type OpenApiDocument } from '../src/spec/index.js';
import { ROOT } from './support/cli.js';
import { CoreHarness, GAME_ORIGIN } from './support/core-harness.js';
import { responseChecker } from './support/openapi-checker.js';

/** The mock as it starts, every variant at once, and configured `ship` and `player` templates with routes that write into both. */
const CONFIGURATIONS: Record<string, () => Promise<ServiceOptions>> = {
  default: async () => ({}),
  '--variant all': async () => ({ variants: ['all'] }),
  "the example client's config": () => loadMockConfig(join(ROOT, 'examples', 'web-client', 'mock.json')),
  "the example client's config under --variant all": async () => ({
    ...(await loadMockConfig(join(ROOT, 'examples', 'web-client', 'mock.json'))),
    variants: ['all'],
  }),
  'fixtures/configs/user-resources.json': () => loadMockConfig(join(ROOT, 'fixtures', 'configs', 'user-resources.json')),
};

/** The routes of the options, compiled as the service compiles them. */
function compiledRoutes(options: ServiceOptions) {
  return compileUserRoutes((options.routes ?? []).map((route, index) => ({ route, at: `routes/${index}` }))).routes;
}

describe("the mock's answers, against the document it serves read as strict validators read it (no field it does not declare)", () => {
  it.each(Object.keys(CONFIGURATIONS))('%s', async (name) => {
    const options = await CONFIGURATIONS[name]!();
    const harness = new CoreHarness(options);
    const document = (await harness.call('GET', '/__mock/openapi.json')).body as OpenApiDocument;
    const check = responseChecker(JSON.parse(JSON.stringify(document)) as OpenApiDocument);
    let checked = 0;
    // The session whose answers are the document's examples, here on this service: every route of the table with its
    // refusals and 429s, each configured route once for each of its answers; each answer checked with its headers.
    const sample: SampleService = {
      get codes() {
        return harness.deliveries.map((delivery) => delivery.code);
      },
      handle: async (request) => {
        const response = await harness.service.handle(request);
        // The session's control calls set players up; the control API's answers are not the API's.
        if (request.path.startsWith(CONTROL_PREFIX)) return response;
        check(request.method, request.path, response);
        checked++;
        return response;
      },
    };
    await exampleAnswers(sample, compiledRoutes(options), []);
    expect(checked).toBeGreaterThan(100);

    // From a game origin (no X-RateLimit-* on the exempt categories): a ship with a field of its own, a move written
    // into it where the configuration has one, both read back.
    const token = await harness.signIn('reader@example.com');
    const requests: [string, string, unknown?][] = [
      ['POST', '/api/player/ship', { galaxyId: 1, shipName: 'Reader', cargo: ['ore'] }],
      ['POST', '/api/player/ship/move', { sectorId: 2 }],
      ['GET', '/api/player/ship'],
      ['GET', '/api/player'],
    ];
    for (const [method, path, body] of requests) check(method, path, await harness.call(method, path, { token, body, origin: GAME_ORIGIN }));
  });
});
