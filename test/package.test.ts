import { copyFile, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { assertBuilt, ROOT } from './support/cli.js';
import { ConsumerProcess, installConsumer, packProject, run, type PackedProject } from './support/package-consumer.js';

/** Every file a package.json `exports` entry points at, e.g. ./dist/src/msw.js and its .d.ts. */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports.replace(/^\.\//, '')];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.values(exports).flatMap(exportTargets);
}

let packed: PackedProject;
let consumer: string;

// One pack and one install (about 10 s on a warm npm cache) serve every test below, which then run side by side.
beforeAll(async () => {
  assertBuilt();
  packed = await packProject();
  consumer = await installConsumer(packed.tarball);
}, 120_000);

afterAll(async () => {
  await Promise.all([consumer, packed?.tarball && dirname(packed.tarball)].map((dir) => dir && rm(dir, { recursive: true, force: true })));
});

describe.concurrent('the npm package, installed into an empty project', { timeout: 60_000 }, () => {
  it('ships the built code with type declarations and every export target, and no tests or caches', async ({ expect }) => {
    const { exports } = JSON.parse(await readFile(`${ROOT}package.json`, 'utf8')) as { exports: unknown };
    const targets = exportTargets(exports);

    expect(targets.filter((target) => !packed.files.includes(target))).toEqual([]);
    expect(packed.files.filter((file) => file.startsWith('dist/') && file.endsWith('.d.ts')).length).toBeGreaterThan(10);
    expect(packed.files).toContain('bin/game-service.js');
    expect(packed.files.filter((file) => /(^|\/)(test|node_modules)\/|\.test\.[cm]?[jt]s$/.test(file))).toEqual([]);
  });

  it('`npx game-service --help` lists the commands', async ({ expect }) => {
    const { stdout } = await run(consumer, 'npx', ['game-service', '--help']);

    expect(stdout).toContain('game-service mock');
    expect(stdout).toContain('game-service check');
  });

  it('`npx game-service mock --port 0` prints its URL and serves there', async ({ expect }) => {
    const mock = new ConsumerProcess(consumer, 'npx', ['game-service', 'mock', '--port', '0']);
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
    const { stdout } = await run(consumer, 'npx', ['game-service', 'check']);

    expect(stdout).toMatch(/\d+ passed, 0 failed/);
  });

  it('the shipped setupServer example passes under vitest in the consumer project', async ({ expect }) => {
    await copyFile(join(consumer, 'node_modules/game-service-harness/fixtures/examples/node-setup-server.ts'), join(consumer, 'client.test.ts'));
    const { stdout } = await run(consumer, 'npx', ['vitest', 'run']);

    expect(stdout).toMatch(/Tests\s+\d+ passed/);
  });
});
