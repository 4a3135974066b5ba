import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { OTP_LENGTH } from '../src/spec/limits.js';
import { ROOT } from './support/cli.js';
import { docsWorkspace, type DocsWorkspace } from './support/docs-workspace.js';
import { attempt, ConsumerProcess, installedPackageCount, installProject, olderNode, run, tarballFiles } from './support/package-consumer.js';

/** Every file a package.json `exports` entry points at, e.g. dist/src/msw.js and its .d.ts. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports.replace(/^\.\//, '')];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap(exportTargets);
}

async function manifest(path: string): Promise<{ exports: Record<string, unknown> }> {
  return JSON.parse(await readFile(join(ROOT, path), 'utf8')) as { exports: Record<string, unknown> };
}

const HARNESS_ENTRIES = [
  'game-service-harness',
  'game-service-harness/msw',
  'game-service-harness/fetch',
  'game-service-harness/spec',
  'game-service-harness/conformance',
];
const MOCK_ENTRIES = ['@game-service-harness/mock/msw', '@game-service-harness/mock/fetch', '@game-service-harness/mock/spec'];

/** The packages as the README and docs/hosts.md pack them in a clean clone, with the files each holds. */
let release: { harness: { files: string[] }; mock: { files: string[] } } | undefined;
/**
 * Empty projects that installed them, from the npm cache: the harness and msw; the mock package and msw; msw
 * alone. Not the docs' own project, whose commands install there again (docs/ci.md's job runs `npm ci`).
 */
let withHarness: string;
let withMock: string;
let mswAlone: string;

// The docs' workspace (one clean clone, its `npm ci`, both packs) and three installs serve every test.
beforeAll(async () => {
  const made: DocsWorkspace = await docsWorkspace();
  [release, withHarness, withMock, mswAlone] = await Promise.all([
    Promise.all([tarballFiles(made.tarballs.harness), tarballFiles(made.tarballs.mock)]).then(([harness, mock]) => ({
      harness: { files: harness },
      mock: { files: mock },
    })),
    installProject([made.tarballs.harness, 'msw@3']),
    installProject([made.tarballs.mock, 'msw@3']),
    installProject(['msw@3']),
  ]);
}, 600_000);

afterAll(async () => {
  await Promise.all([withHarness, withMock, mswAlone].map((dir) => dir && rm(dir, { recursive: true, force: true })));
});

describe.concurrent('a release packed from a clean clone, as the docs pack it', () => {
  it('game-service-harness ships its build with types, every export target, the bin and the LICENSE, and no tests', async ({ expect }) => {
    const { files } = release!.harness;
    const targets = exportTargets((await manifest('package.json')).exports);

    expect(targets.filter((target) => !files.includes(target))).toEqual([]);
    expect(files.filter((file) => file.startsWith('dist/') && file.endsWith('.d.ts')).length).toBeGreaterThan(10);
    expect(files).toEqual(expect.arrayContaining(['bin/game-service.js', 'LICENSE']));
    expect(files.filter((file) => /(^|\/)(test|node_modules)\/|\.test\.[cm]?[jt]s$/.test(file))).toEqual([]);
    expect(await readFile(join(withHarness, 'node_modules/game-service-harness/LICENSE'), 'utf8')).toBe(await readFile(join(ROOT, 'LICENSE'), 'utf8'));
  });

  it('@game-service-harness/mock ships the in-process entries and the LICENSE, and nothing of the CLI, the stores or the suite', async ({ expect }) => {
    const { files } = release!.mock;
    const targets = exportTargets((await manifest('packages/mock/package.json')).exports);

    expect(targets.filter((target) => !files.includes(target))).toEqual([]);
    expect(files).toContain('LICENSE');
    expect(files.filter((file) => /^dist\/(cli|stores)\/|conformance|\.test\.[cm]?[jt]s$/.test(file))).toEqual([]);
    expect(await readFile(join(withMock, 'node_modules/@game-service-harness/mock/LICENSE'), 'utf8')).toBe(await readFile(join(ROOT, 'LICENSE'), 'utf8'));
  });
});

/** The names each entry exports, as a program in `project` imports them on the project's Node 24. */
async function importedExports(project: string, entries: readonly string[]): Promise<Record<string, string[]>> {
  const program = `const names = {}; for (const entry of ${JSON.stringify(entries)}) names[entry] = Object.keys(await import(entry)); console.log(JSON.stringify(names));`;
  const { stdout } = await run(project, 'node', ['--input-type=module', '-e', program]);
  return JSON.parse(stdout) as Record<string, string[]>;
}

describe.concurrent('game-service-harness installed with msw', { timeout: 60_000 }, () => {
  it('imports from each entry point', async ({ expect }) => {
    const names = await importedExports(withHarness, HARNESS_ENTRIES);

    expect(names['game-service-harness']).toEqual(expect.arrayContaining(['createService', 'createNodeServer', 'startMock']));
    expect(names['game-service-harness/msw']).toContain('createMswMock');
    expect(names['game-service-harness/fetch']).toContain('createFetchHandler');
    expect(names['game-service-harness/spec']).toContain('openApiDocument');
    expect(names['game-service-harness/conformance']).toEqual(expect.arrayContaining(['runConformance', 'runFuzz']));
  });

  it('`npx game-service --help` lists the commands', async ({ expect }) => {
    const { stdout } = await run(withHarness, 'npx', ['game-service', '--help']);

    expect(stdout).toContain('game-service mock');
    expect(stdout).toContain('game-service check');
  });

  it('`npx game-service mock --port 0` prints its URL and serves there', async ({ expect }) => {
    const mock = new ConsumerProcess(withHarness, 'npx', ['game-service', 'mock', '--port', '0']);
    try {
      const [, url] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
      const health = await fetch(`${url}/health`);

      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
    } finally {
      await mock.stop();
    }
  });

  it('`npx game-service check` passes against its embedded mock', async ({ expect }) => {
    const { stdout } = await run(withHarness, 'npx', ['game-service', 'check']);

    expect(stdout).toMatch(/\d+ passed, 0 failed/);
  });

  it('the shipped setupServer example passes under vitest (a dependency of the harness)', async ({ expect }) => {
    await copyFile(join(withHarness, 'node_modules/game-service-harness/fixtures/examples/node-setup-server.ts'), join(withHarness, 'client.test.ts'));
    const { stdout } = await run(withHarness, 'npx', ['vitest', 'run']);

    expect(stdout).toMatch(/Tests\s+\d+ passed/);
  });
});

/** A client's first steps against the mock package: sign-up through the msw handlers, /health through the fetch handler. */
const MOCK_PACKAGE_PROGRAM = `
import { setupServer } from 'msw/node';
import { createMswMock } from '@game-service-harness/mock/msw';
import { createFetchHandler, createService } from '@game-service-harness/mock/fetch';
import { OTP_LENGTH } from '@game-service-harness/mock/spec';

const api = 'https://api.game.test';
const mock = createMswMock({ baseUrl: api, onOtp: () => {} });
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledFrame: 'error' });
const email = 'alice@example.com';
const registered = await fetch(api + '/api/auth/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
const otp = await mock.control.latestOtp(email);
server.close();
const health = await createFetchHandler(createService({ onOtp: () => {} }))(new Request('http://mock.test/health'), '127.0.0.1');
console.log(JSON.stringify({ registered: registered.status, otpLength: otp.length, specOtpLength: OTP_LENGTH, health: health.status }));
`;

describe.concurrent('@game-service-harness/mock installed with msw', () => {
  it('costs at most 10 packages more than msw alone, where the harness costs its CLI, suite and stores', async ({ expect, annotate }) => {
    const [msw, mock, harness] = await Promise.all([installedPackageCount(mswAlone), installedPackageCount(withMock), installedPackageCount(withHarness)]);
    await annotate(`packages installed: msw ${msw}, @game-service-harness/mock + msw ${mock}, game-service-harness + msw ${harness}`);

    expect(mock).toBeGreaterThan(msw);
    expect(mock).toBeLessThanOrEqual(msw + 10);
  });

  it('serves a sign-up through msw, /health through the fetch handler, and the spec as data', async ({ expect }) => {
    await writeFile(join(withMock, 'client.js'), MOCK_PACKAGE_PROGRAM);
    const { stdout } = await run(withMock, 'node', ['client.js']);

    expect(JSON.parse(stdout)).toEqual({ registered: 200, otpLength: OTP_LENGTH, specOtpLength: OTP_LENGTH, health: 200 });
  });
});

describe.concurrent('on a Node.js older than 22.12 (the system one)', { timeout: 60_000 }, () => {
  let old: { path: string; version: string };
  beforeAll(async () => {
    old = await olderNode();
  });
  const reason = () => `game-service-harness needs Node.js >= 22.12; this is ${old.version}`;

  it('importing any entry point of either package fails with the reason, before msw or node:sqlite can', async ({ expect }) => {
    // One program a package, importing each entry in turn: each import must fail on the guard, whatever failed before it.
    const program = (entries: readonly string[]) =>
      `for (const entry of ${JSON.stringify(entries)}) { try { await import(entry); console.log(JSON.stringify({ entry, loaded: true })); } catch (error) { console.log(JSON.stringify({ entry, error: String(error) })); } }`;
    const outcomes = await Promise.all(
      [
        [withHarness, HARNESS_ENTRIES],
        [withMock, MOCK_ENTRIES],
      ].map(async ([project, entries]) => {
        const { code, stdout, stderr } = await attempt(project as string, old.path, ['--input-type=module', '-e', program(entries as string[])]);
        expect(code, stderr).toBe(0);
        return stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { entry: string; loaded?: true; error?: string });
      }),
    );

    expect(outcomes.flat()).toEqual([...HARNESS_ENTRIES, ...MOCK_ENTRIES].map((entry) => ({ entry, error: `Error: ${reason()}` })));
  });

  it('./browser, bundled as a bundler does for a DOM test run, stops at the guard before msw starts', async ({ expect }) => {
    for (const [project, entry] of [
      [withHarness, 'game-service-harness/browser'],
      [withMock, '@game-service-harness/mock/browser'],
    ] as const) {
      const bundle = await build({
        stdin: { contents: `import '${entry}';`, resolveDir: project },
        bundle: true,
        platform: 'browser',
        format: 'esm',
        write: false,
        logLevel: 'silent',
      });
      await writeFile(join(project, 'browser-bundle.js'), bundle.outputFiles[0]!.text);
      const { code, stderr } = await attempt(project, old.path, ['browser-bundle.js']);

      expect(code, entry).toBe(1);
      expect(stderr, entry).toContain(`Error: ${reason()}`);
    }
  });

  it('`game-service` of a checkout names the Node that npm ci installed there', async ({ expect }) => {
    const { code, stdout, stderr } = await attempt(ROOT, old.path, ['bin/game-service.js', '--help']);

    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toBe(
      `game-service: ${reason()}\ngame-service: run it with the Node that npm ci installed here: ${join(ROOT, 'node_modules/.bin/node')} bin/game-service.js …, or npx game-service …\n`,
    );
  });

  it('`game-service` prints the reason alone and exits 2', async ({ expect }) => {
    const { code, stdout, stderr } = await attempt(withHarness, old.path, ['node_modules/.bin/game-service', '--help']);

    expect({ code, stdout, stderr }).toEqual({ code: 2, stdout: '', stderr: `game-service: ${reason()}\n` });
  });
});
