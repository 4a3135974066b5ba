/**
 * The commands the README's quick start and docs/ci.md show, run as a reader would run them, in an empty
 * project that installs this checkout's package. What a reader would change, and only that:
 * - the README's `npm i -D game-service-harness msw` installs this checkout's packed tarball in place of
 *   the registry's package;
 * - the mock is started on a free port (`--port 0`, reading the URL it prints; docs/ci.md's job picks one
 *   for its own mock), and every 8080 of the blocks, expected output included, becomes that port.
 * Files run one test after another: the quick start's commands share one mock, and each test starts processes.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from './support/cli.js';
import { freePort } from './support/free-port.js';
import { parseMarkdown, type FencedBlock } from './support/docs-markdown.js';
import { expectedOutput, missingOutput, runShell, startShell, stopGroup } from './support/docs-shell.js';
import { workflowSteps } from './support/docs-workflow.js';
import { packCheckout, run, type PackedProject } from './support/package-consumer.js';

const QUICK_START = 'Quick start';

let packed: PackedProject;
let project: string;
let quickStart: FencedBlock[];

/** The blocks under the README's quick-start heading: its own (the install) and its subsections' (one per reader). */
async function quickStartBlocks(): Promise<FencedBlock[]> {
  const { blocks } = parseMarkdown(await readFile(join(ROOT, 'README.md'), 'utf8'));
  return blocks.filter((block) => block.headings.some((heading) => heading.level === 2 && heading.text === QUICK_START));
}

const underSubsection = (block: FencedBlock) => block.headings.at(-1)!.text !== QUICK_START;
const startsMock = (block: FencedBlock) => block.code.trimStart().startsWith('npx game-service mock');
const onPort = (text: string, port: number) => text.replace(/\b8080\b/g, String(port));

/** Runs a shell block in the project: it must exit 0 and print what its comments show. */
async function runBlock(script: string, label: string): Promise<void> {
  const result = await runShell(project, script);
  stopGroup(result.group);
  const report = `${label}\n${script}\nexit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
  expect(result.code, report).toBe(0);
  expect(missingOutput(expectedOutput(script), result.stdout), report).toBeUndefined();
}

beforeAll(async () => {
  assertBuilt();
  quickStart = await quickStartBlocks();
  const install = quickStart.filter((block) => block.lang === 'sh' && !underSubsection(block));
  expect(install.map((block) => block.code)).toEqual([expect.stringMatching(/^npm i -D game-service-harness\b/)]);
  packed = await packCheckout();
  project = await mkdtemp(join(tmpdir(), 'game-service-docs-'));
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'reader', private: true, type: 'module' }));
  await run(project, 'bash', ['-eo', 'pipefail', '-c', install[0]!.code.replace(/\bgame-service-harness\b/, packed.tarball)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([project, packed?.tarball && dirname(packed.tarball)].map((dir) => dir && rm(dir, { recursive: true, force: true })));
});

describe('the README quick start, run', { timeout: 120_000 }, () => {
  it('the standalone mock answers the curl commands, then check and fuzz pass against it', async () => {
    const shellBlocks = quickStart.filter((block) => block.lang === 'sh' && underSubsection(block));
    const [mockBlock, ...others] = shellBlocks;
    expect(mockBlock !== undefined && startsMock(mockBlock), 'the first quick start starts the mock').toBe(true);
    expect(others.map((block) => block.headings.at(-1)!.text)).toEqual([
      'Client developer: the standalone mock',
      'CI: check a deployment',
      'Tester: fuzz the rate limits',
    ]);

    const [command = ''] = mockBlock!.code.split('\n');
    const mock = startShell(project, `${command} --port 0`);
    try {
      const [, port = ''] = await mock.waitForOutput(/listening on http:\/\/127\.0\.0\.1:(\d+)\n/);
      expect(missingOutput(expectedOutput(onPort(mockBlock!.code, Number(port))), mock.stdout), mock.stdout).toBeUndefined();

      for (const block of others) await runBlock(onPort(block.code, Number(port)), block.headings.at(-1)!.text);
    } finally {
      stopGroup(mock.child.pid!);
    }
  });

  it('the msw example runs with node and prints what its comments say', async () => {
    const [example] = quickStart.filter((block) => block.lang === 'ts');
    expect(example?.headings.at(-1)?.text).toBe('Client developer: msw in your tests');
    const printed = [...example!.code.matchAll(/console\.log\(.*\/\/ (.+)$/gm)].map((match) => match[1]);
    expect(printed.length).toBeGreaterThan(0);
    await writeFile(join(project, 'quick-start.ts'), example!.code);

    const result = await run(project, 'node', ['quick-start.ts']);

    expect(result.stdout.trim().split('\n')).toEqual(printed);
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
