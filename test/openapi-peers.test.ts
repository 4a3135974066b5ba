import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT, startMock, useCli } from './support/cli.js';

/**
 * The document a running mock serves, as the peer tools its users already have read it: `redocly lint` with its
 * recommended rules, and swagger-parser's validation, for the default mock, every variant at once and the example
 * web client's configuration (its own routes and fields).
 */

const cli = useCli();
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const CONFIGURATIONS: Record<string, string[]> = {
  default: [],
  'every variant': ['--variant', 'all'],
  "the example client's config": ['--config', join(ROOT, 'examples', 'web-client', 'mock.json')],
};
let dir = '';

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'game-service-openapi-peers-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

async function redoclyLint(file: string): Promise<LintProblem[]> {
  const run = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', file], {
    cwd: dir,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return (JSON.parse(run.stdout) as { problems: LintProblem[] }).problems;
}

describe("the running mock's OpenAPI document, read by peer tools", () => {
  it.each(Object.entries(CONFIGURATIONS))('%s: redocly lint (recommended) finds no error, and swagger-parser validates it', async (name, flags) => {
    const mock = await startMock(cli, ['--port', '0', ...flags]);
    const document = (await (await fetch(`${mock.url}/__mock/openapi.json`)).json()) as Record<string, unknown>;
    const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(document));
    const errors = (await redoclyLint(file)).filter((problem) => problem.severity === 'error');
    expect(errors.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`)).toEqual([]);
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });
});
