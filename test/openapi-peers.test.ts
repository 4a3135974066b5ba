import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../src/spec/index.js';
import { ROOT, startMock, useCli } from './support/cli.js';
import { checkHarAgainstDocument } from './support/har-against-document.js';
import { type LintProblem, problemLine, redoclyLint } from './support/redocly-lint.js';

/**
 * The document a running mock serves, as the peer tools its users already have read it (`redocly lint` with its
 * recommended rules: no error, no warning; swagger-parser's validation), and every exchange of a `check` run against it, as the run's HAR
 * keeps them: for the default mock, every variant at once and the example web client's configuration.
 */

const cli = useCli();
const GAME_ORIGIN = 'http://conformance.game.test';
const CONFIGURATIONS: Record<string, { mock: string[]; check: string[] }> = {
  default: { mock: [], check: ['--forwarded-for'] },
  'every variant': {
    mock: ['--variant', 'all'],
    check: ['--client-ip-header', 'CF-Connecting-IP', '--ship-payload', '{"galaxyId":1,"shipName":"Conformance"}'],
  },
  "the example client's config": { mock: ['--config', join(ROOT, 'examples', 'web-client', 'mock.json')], check: ['--forwarded-for'] },
};
let dir = '';
/** What redocly found in each configuration's served document, all read in one process, by the document's file. */
let lintProblems: Map<string, LintProblem[]>;

const fileOf = (name: string) => join(dir, `${name.replace(/\W+/g, '-')}.json`);

/** The document a mock of these flags serves, as a client fetches it. */
async function servedDocument(flags: readonly string[]): Promise<{ url: string; document: OpenApiDocument }> {
  const mock = await startMock(cli, ['--port', '0', '--trust-proxy', '--game-origin', GAME_ORIGIN, ...flags]);
  return { url: mock.url, document: (await (await fetch(`${mock.url}/__mock/openapi.json`)).json()) as OpenApiDocument };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-openapi-peers-'));
  for (const [name, flags] of Object.entries(CONFIGURATIONS)) writeFileSync(fileOf(name), JSON.stringify((await servedDocument(flags.mock)).document));
  lintProblems = await redoclyLint(Object.keys(CONFIGURATIONS).map(fileOf));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the running mock's OpenAPI document, read by peer tools and held to a check run's exchanges", () => {
  it.each(Object.entries(CONFIGURATIONS))('%s', async (name, flags) => {
    // redocly read the document a mock of these flags served (its examples' ids and instants are made anew each start).
    expect((lintProblems.get(basename(fileOf(name))) ?? []).map(problemLine)).toEqual([]);
    const mock = await servedDocument(flags.mock);
    const { document } = mock;
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();

    const har = join(dir, `${name.replace(/\W+/g, '-')}.har`);
    const run = await cli.run(['check', '--base-url', mock.url, '--game-origin', GAME_ORIGIN, ...flags.check, '--har', har], {}, 5 * 60_000);
    expect(run.code, run.stdout.slice(-2_000)).toBe(0);
    expect(checkHarAgainstDocument(har, document), 'exchanges of the run checked against the document').toBeGreaterThan(200);
  });
});
