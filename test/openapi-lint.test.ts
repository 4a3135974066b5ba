import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMockConfig } from '../src/index.js';
import type { ServiceOptions } from '../src/core/options.js';
import { ROOT } from './support/cli.js';
import { CoreHarness } from './support/core-harness.js';
import { problemLine, redoclyLint } from './support/redocly-lint.js';

/**
 * The document an in-process mock serves, read by `redocly lint` with its recommended rules: no error and no
 * warning (an example its schema does not declare, an unused component) for the default mock, every variant at
 * once and the example web client's configuration.
 */

const CONFIGURATIONS: Record<string, () => Promise<ServiceOptions>> = {
  default: async () => ({}),
  '--variant all': async () => ({ variants: ['all'] }),
  "the example client's config": () => loadMockConfig(join(ROOT, 'examples', 'web-client', 'mock.json')),
};
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-openapi-lint-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the mock's OpenAPI document, linted by redocly's recommended rules", () => {
  it.each(Object.keys(CONFIGURATIONS))('%s: no error, no warning', async (name) => {
    const harness = new CoreHarness(await CONFIGURATIONS[name]!());
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify((await harness.call('GET', '/__mock/openapi.json')).body));
    expect((await redoclyLint(file)).map(problemLine)).toEqual([]);
  });
});
