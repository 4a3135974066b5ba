/**
 * The commands the README's quick start, docs/hosts.md's lean package, docs/mock.md's background start, docs/ci.md (its jobs) and
 * docs/proxy.md show, and docs/routes.md's routes with their handler module, run as a reader would run them. What a reader would change, and only that:
 * - the README's install from a clone runs as written, from a directory that holds a clone of this checkout
 *   (`game-service-harness`, its tracked files as they are now) and the project the README makes with `npm init -y`
 *   (`my-game`);
 *   its registry command (`npm i -D game-service-harness msw`) is not run, as the package is not published yet;
 * - the mock is started on a free port (`--port 0`, reading the URL it prints; the background start and
 *   docs/ci.md's job pick one for their own mock), and every 8080 of the blocks, expected output included, becomes
 *   that port.
 * Files run one test after another: the quick start's commands share one mock, and each test starts processes.
 */
import { createServer } from 'node:net';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from './support/cli.js';
import { freePort } from './support/free-port.js';
import { parseMarkdown, type FencedBlock } from './support/docs-markdown.js';
import { expectedOutput, missingOutput, runShell, startShell, stopGroup } from './support/docs-shell.js';
import { blocksUnder, docsWorkspace, type DocsWorkspace, quickStartBlocks, underSubsection } from './support/docs-workspace.js';
import { workflowSteps } from './support/docs-workflow.js';
import { run } from './support/package-consumer.js';
import { startProxy } from '../conformance/proxy/proxy-server.js';
import { recordRoutes, writeRecordedRoutes } from '../conformance/proxy/record-routes.js';

const MSW_EXAMPLE = 'quick-start.mts';

/** The directory that holds the clone and the reader's project, shared with the packages' tests (docs-workspace.ts). */
let made: DocsWorkspace;
let project: string;
let quickStart: FencedBlock[];

const startsMock = (block: FencedBlock) => block.code.trimStart().startsWith('npx game-service mock');
const onPort = (text: string, port: number) => text.replace(/\b8080\b/g, String(port));

/** Runs a shell block in `cwd`: it must exit 0 and print what its comments show. */
async function runBlock(cwd: string, script: string, label: string): Promise<void> {
  const result = await runShell(cwd, script);
  stopGroup(result.group);
  const report = `${label}\n${script}\nexit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
  expect(result.code, report).toBe(0);
  expect(missingOutput(expectedOutput(script), result.stdout), report).toBeUndefined();
}

/** Whether something still listens on the loopback `port`: a listen there fails with EADDRINUSE. */
function portHeld(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(true) : reject(error)));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
  });
}

beforeAll(async () => {
  assertBuilt();
  quickStart = await quickStartBlocks();
  made = await docsWorkspace();
  project = made.project;
}, 600_000);

describe('the README install from a clone and docs/hosts.md lean package, run', () => {
  it('every block that made the workspace exits 0 and prints what its comments show', () => {
    expect(made.steps.map((step) => step.label)).toEqual([
      'README: a new project',
      'README: install from a clone',
      'docs/hosts.md: the lean package from a clone',
    ]);
    for (const { label, script, result } of made.steps) {
      const report = `${label}\n${script}\nexit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
      expect(result.code, report).toBe(0);
      expect(missingOutput(expectedOutput(script), result.stdout), report).toBeUndefined();
    }
  });

  it('npm init -y wrote a CommonJS project, the case the quick start must work in', async () => {
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { type?: string };
    expect(manifest.type).toBe('commonjs');
  });
});

describe('the README quick start, run', { timeout: 120_000 }, () => {
  it('the standalone mock answers the curl commands, then check and fuzz pass against it', async () => {
    const shellBlocks = quickStart.filter((block) => block.lang === 'sh' && underSubsection(block));
    const [mockBlock, ...rest] = shellBlocks;
    expect(mockBlock !== undefined && startsMock(mockBlock), 'the first quick start starts the mock').toBe(true);
    expect(rest.map((block) => block.headings.at(-1)!.text)).toEqual([
      'Client developer: the standalone mock',
      'CI: check a deployment',
      'Tester: fuzz the rate limits',
      'Watch a client and a deployment',
    ]);
    // The proxy runs until stopped, as the mock does: it is started, and judged by what it prints.
    const proxyBlock = rest.pop()!;
    const others = rest;

    const [command = ''] = mockBlock!.code.split('\n');
    const mock = startShell(project, `${command} --port 0`);
    try {
      const [, port = ''] = await mock.waitForOutput(/listening on http:\/\/127\.0\.0\.1:(\d+)\n/);
      expect(missingOutput(expectedOutput(onPort(mockBlock!.code, Number(port))), mock.stdout), mock.stdout).toBeUndefined();

      for (const block of others) await runBlock(project, onPort(block.code, Number(port)), block.headings.at(-1)!.text);

      const proxyScript = onPort(proxyBlock.code, Number(port)).replace(/\b8090\b/g, String(await freePort()));
      const proxy = startShell(project, proxyScript);
      try {
        await proxy.waitForOutput(/listening on http:\/\/127\.0\.0\.1:\d+, forwarding to /);
        expect(missingOutput(expectedOutput(proxyScript), proxy.stdout), proxy.stdout).toBeUndefined();
      } finally {
        stopGroup(proxy.child.pid!);
      }
    } finally {
      stopGroup(mock.child.pid!);
    }
  });

  it(`the msw example, saved as ${MSW_EXAMPLE} in the npm init -y project, runs with node and prints what its comments say`, async () => {
    const example = await mswExample();
    const printed = [...example.matchAll(/console\.log\(.*\/\/ (.+)$/gm)].map((match) => match[1]);
    expect(printed.length).toBeGreaterThan(0);
    await writeFile(join(project, MSW_EXAMPLE), example);

    const result = await run(project, 'node', [MSW_EXAMPLE]);

    expect(result.stdout.trim().split('\n')).toEqual(printed);
  });

  it("docs/hosts.md's lean package, packed in the clone and installed as written, runs the msw example from its own entry", async () => {
    const example = (await mswExample()).replace("'game-service-harness/msw'", "'@game-service-harness/mock/msw'");
    await writeFile(join(project, 'lean-quick-start.mts'), example);

    const result = await run(project, 'node', ['lean-quick-start.mts']);

    expect(result.stdout.trim()).toBe('400');
  });
});

/** The README's msw example, checked to be the one its prose says to save and run. */
async function mswExample(): Promise<string> {
  const [example] = quickStart.filter((block) => block.lang === 'ts');
  expect(example?.headings.at(-1)?.text).toBe('Client developer: msw in your tests');
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  expect(readme).toContain(`\`node ${MSW_EXAMPLE}\``);
  return example!.code;
}

describe("docs/mock.md's background start, run", { timeout: 120_000 }, () => {
  it('starts the mock with the bin, and the documented kill stops it and frees its port', async () => {
    const [recipe] = await blocksUnder('docs/mock.md', 'In the background');
    expect(recipe?.code).toMatch(/&\nMOCK_PID=\$!\n[\s\S]*\nkill \$MOCK_PID\n/);
    const port = await freePort();

    const script = onPort(recipe!.code, port);

    // The shell's process group is stopped only after the port is judged: what the recipe left running would hold it.
    const result = await runShell(project, script);
    try {
      const report = `${script}\nexit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
      expect(result.code, report).toBe(0);
      expect(missingOutput(expectedOutput(script), result.stdout), report).toBeUndefined();
      expect(await portHeld(port), `the port ${port} is still held after the recipe's kill\n${report}`).toBe(false);
    } finally {
      stopGroup(result.group);
    }
  });
});

describe('docs/ci.md, run', { timeout: 120_000 }, () => {
  it("the job's run steps start the mock, check it with exit 0, and write the JUnit file the upload step keeps", async () => {
    const page = parseMarkdown(await readFile(join(ROOT, 'docs/ci.md'), 'utf8'));
    const workflow = page.blocks.find((block) => block.lang === 'yaml');
    const steps = workflowSteps(workflow!.code);
    const actions = steps.flatMap((step) => (step.uses === undefined ? [] : [step.uses.replace(/@.*/, '')]));
    expect(actions).toEqual(['actions/checkout', 'actions/setup-node', 'actions/upload-artifact']);
    const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact'));
    expect(upload?.if, 'the report is kept when a check fails').toBe('always()');
    const commands = steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
    expect(commands.some((command) => command.includes('game-service check') && command.includes('--junit'))).toBe(true);

    const report = join(project, upload!.with['path']!);
    await rm(report, { force: true });
    const port = await freePort();
    const groups: number[] = [];
    try {
      for (const command of commands) {
        const result = await runShell(project, onPort(command, port));
        groups.push(result.group);
        expect(result.code, `${command}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
      }
    } finally {
      groups.forEach(stopGroup);
    }

    const junit = await readFile(report, 'utf8');
    expect(junit).toMatch(/^<\?xml[^>]*>\s*<testsuites name="game-service check" tests="\d+" failures="0" errors="0"/);
  });
});

describe("docs/ci.md's contract job, run", { timeout: 120_000 }, () => {
  it('checks a session recorded through the proxy against the deployment it was recorded from: exit 0, a testcase per route', async () => {
    const page = parseMarkdown(await readFile(join(ROOT, 'docs/ci.md'), 'utf8'));
    const workflow = page.blocks.filter((block) => block.lang === 'yaml')[1];
    const steps = workflowSteps(workflow!.code);
    const check = steps.find((step) => step.run?.includes('--recording'));
    const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact'));
    expect(upload?.if, 'the report is kept when staging drifted').toBe('always()');
    expect(Object.keys(check!.env)).toEqual(['STAGING_URL']);
    const recording = /--recording (\S+)/.exec(check!.run!)![1]!;

    // Staging, played by a mock of the installed package; a session of a client recorded through the proxy in front of it.
    const port = await freePort();
    const staging = await runShell(
      project,
      `./node_modules/.bin/game-service mock --port ${port} > staging.log 2>&1 &\ncurl -sf --retry 30 --retry-connrefused --retry-delay 1 http://127.0.0.1:${port}/health`,
    );
    try {
      expect(staging.code, staging.stderr).toBe(0);
      await recordClientSession(`http://127.0.0.1:${port}`, join(project, recording));
      const report = join(project, upload!.with['path']!);
      await rm(report, { force: true });
      // The runner gives the step its env; the project is installed already (the first job ran npm ci in it).
      const result = await runShell(project, `export STAGING_URL=http://127.0.0.1:${port}\n${check!.run!}`);
      stopGroup(result.group);
      expect(result.code, `${check!.run}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
      const junit = await readFile(report, 'utf8');
      expect(junit).toMatch(/<testsuites name="game-service check --recording" tests="3" failures="0"/);
    } finally {
      stopGroup(staging.group);
    }
  });
});

/** A client's session through the proxy (sign in, read the player, make a ship, read it), written as `proxy --record` writes it. */
async function recordClientSession(deployment: string, file: string): Promise<void> {
  const proxy = await startProxy({ target: new URL(deployment), port: 0, host: '127.0.0.1', gameOrigins: [], keepApiExchanges: true });
  try {
    const call = async (method: string, path: string, token?: string, json?: unknown) => {
      const headers: Record<string, string> = json === undefined ? {} : { 'content-type': 'application/json' };
      if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
      const answer = await fetch(`${proxy.url}${path}`, { method, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
      return (await answer.json()) as Record<string, unknown>;
    };
    const email = 'pilot@example.com';
    await call('POST', '/api/auth/register', undefined, { email });
    const outbox = (await (await fetch(`${deployment}/__mock/outbox?email=${encodeURIComponent(email)}`)).json()) as { messages: { code: string }[] };
    const { authToken } = (await call('POST', '/api/auth/verify-email', undefined, { email, otp: outbox.messages[0]!.code })) as { authToken: string };
    await call('GET', '/api/player', authToken);
    await call('POST', '/api/player/ship', authToken, { name: 'Nomad' });
    await call('GET', '/api/player/ship', authToken);
  } finally {
    await proxy.close();
  }
  await mkdir(dirname(file), { recursive: true });
  await writeRecordedRoutes(file, recordRoutes(proxy.apiExchanges).config);
}

describe('docs/proxy.md, run', { timeout: 120_000 }, () => {
  /** The page's ports, the mock's 8080 and the proxy's 8090, made free ones (the same in every step of a job). */
  async function freePorts(): Promise<(text: string) => string> {
    const [mockPort, proxyPort] = [await freePort(), await freePort()];
    return (text) => onPort(text, mockPort).replace(/\b8090\b/g, String(proxyPort));
  }

  it('trying it against the mock prints what the page shows: the client departure, the summary, exit code 1', async () => {
    const [recipe] = await blocksUnder('docs/proxy.md', 'Try it against the mock');
    expect(recipe?.code).toContain('game-service proxy --target');
    await runBlock(project, (await freePorts())(recipe!.code), 'docs/proxy.md: try it against the mock');
  });

  it("the CI job's run steps pass with the suite as the end-to-end tests, and write the proxy's JUnit report", async () => {
    const page = parseMarkdown(await readFile(join(ROOT, 'docs/proxy.md'), 'utf8'));
    const workflow = page.blocks.find((block) => block.lang === 'yaml');
    const steps = workflowSteps(workflow!.code);
    const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact'));
    expect(upload?.if, 'the report is kept when the proxy fails the job').toBe('always()');
    const commands = steps.flatMap((step) => (step.run === undefined ? [] : [step.run]));
    const report = join(project, upload!.with['path']!);
    await rm(report, { force: true });
    const onPorts = await freePorts();
    const groups: number[] = [];
    try {
      for (const command of commands.map(onPorts)) {
        const result = await runShell(project, command);
        groups.push(result.group);
        expect(result.code, `${command}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
      }
    } finally {
      groups.forEach(stopGroup);
    }
    const junit = await readFile(report, 'utf8');
    expect(junit).toMatch(/<testsuite name="game-service proxy: server" tests="\d+" failures="0"/);
    expect(junit).toMatch(/<testsuite name="game-service proxy: client" tests="7" failures="[1-9]/);
  });
});

describe('docs/routes.md, run', { timeout: 120_000 }, () => {
  it('its routes, with the handler module saved under the name the page gives it, serve the npm init -y project', async () => {
    const { blocks } = parseMarkdown(await readFile(join(ROOT, 'docs/routes.md'), 'utf8'));
    const [config] = blocks.filter((block) => block.lang === 'json');
    const [handlers] = blocks.filter((block) => block.lang === 'ts' && block.headings.at(-1)?.text === 'A module of handlers');
    const [, moduleName = ''] = /^\/\/ (\S+)\n/.exec(handlers?.code ?? '') ?? [];
    expect(config?.code, 'the config names the module the page saves').toContain(`"module": "./${moduleName}"`);
    await writeFile(join(project, moduleName), handlers!.code);
    await writeFile(join(project, 'routes-mock.json'), config!.code);

    const mock = startShell(project, './node_modules/.bin/game-service mock --port 0 --config routes-mock.json');
    try {
      const [, url = ''] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
      const call = async (path: string, init: { token?: string; json?: unknown } = {}) => {
        const response = await fetch(`${url}${path}`, {
          method: init.json === undefined ? 'GET' : 'POST',
          headers: {
            ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
            ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const created = await call('/__mock/players', { json: { email: 'pilot@example.com', ship: { name: 'Nomad' } } });
      const token = created.body['authToken'] as string;

      expect((await call('/api/player/ship/move', { token, json: { sectorId: 7 } })).status).toBe(200);
      expect((await call('/api/galaxy/1/sectors', { token })).body).toMatchObject({ success: true, galaxyId: '1', current: 7 });
      expect(await call('/api/notifications/digest', { token })).toEqual({
        status: 200,
        body: { success: true, digest: '1 for pilot@example.com' },
      });
    } finally {
      stopGroup(mock.child.pid!);
    }
  });
});
