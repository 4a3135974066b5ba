import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../src/spec/index.js';
import { assertBuilt, ROOT, startMock, useCli } from './support/cli.js';
import { responseChecker } from './support/openapi-checker.js';

/**
 * Every exchange of a `check` run, as its HAR keeps it, against the OpenAPI document of the mock that answered it:
 * the status declared for the operation (or the unrouted answers), the body's schema and the headers, by default,
 * under every variant at once and with the example web client's configuration.
 */

const cli = useCli();
const GAME_ORIGIN = 'http://conformance.game.test';
const CONFIGURATIONS: Record<string, string[]> = {
  default: [],
  'every variant': ['--variant', 'all'],
  "the example client's config": ['--config', join(ROOT, 'examples', 'web-client', 'mock.json')],
};
let dir = '';

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'game-service-openapi-har-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface HarEntry {
  request: { method: string; url: string; headers: { name: string; value: string }[] };
  response: { status: number; headers: { name: string; value: string }[]; content: { text?: string } };
  comment?: string;
}

const headerMap = (headers: { name: string; value: string }[]) => Object.fromEntries(headers.map(({ name, value }) => [name.toLowerCase(), value]));

function parsedBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

describe("a check run's exchanges, against the OpenAPI document of the mock that answered them", () => {
  it.each(Object.entries(CONFIGURATIONS))('%s', async (name, flags) => {
    const mock = await startMock(cli, ['--port', '0', '--trust-proxy', '--game-origin', GAME_ORIGIN, ...flags]);
    const har = join(dir, `${name.replace(/\W+/g, '-')}.har`);
    const variantFlags = flags.includes('all')
      ? ['--client-ip-header', 'CF-Connecting-IP', '--ship-payload', '{"galaxyId":1,"shipName":"Conformance"}']
      : ['--forwarded-for'];
    const run = await cli.run(['check', '--base-url', mock.url, '--game-origin', GAME_ORIGIN, ...variantFlags, '--har', har], {}, 5 * 60_000);
    expect(run.code, run.stdout.slice(-2_000)).toBe(0);
    const document = (await (await fetch(`${mock.url}/__mock/openapi.json`)).json()) as OpenApiDocument;
    const check = responseChecker(document);
    const entries = (JSON.parse(readFileSync(har, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
    const judged = entries.filter((entry) => !new URL(entry.request.url).pathname.startsWith('/__mock'));
    for (const { request, response } of judged) {
      const url = new URL(request.url);
      const headers = headerMap(request.headers);
      check(
        request.method,
        url.pathname,
        { status: response.status, headers: headerMap(response.headers), body: parsedBody(response.content.text) },
        headers['origin'],
      );
    }
    expect(judged.length, 'the run sent requests to the API').toBeGreaterThan(200);
  });
});
