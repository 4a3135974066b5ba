import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './cli.js';
import { DOCS_WORKSPACE } from './docs-workspace-dir.js';
import { parseMarkdown, type FencedBlock } from './docs-markdown.js';
import { runShell, stopGroup, type ShellRun } from './docs-shell.js';
import { cloneCheckout } from './package-consumer.js';

/**
 * The directory a reader of the README works in, made once for every test file of a run that needs it (the docs'
 * commands, the packages' contents): a clone of this checkout (`game-service-harness`, its tracked files as they
 * are now) and the project the README makes with `npm init -y` (`my-game`), where the README's install from a
 * clone and docs/hosts.md's lean package ran as written. The first file to ask makes it; the others wait for it.
 * A clone, its `npm ci` and two packs are the slowest part of a run: made once, not once a file.
 */
export interface DocsWorkspace {
  /** The directory that holds the clone and the project, side by side as the README has them. */
  workspace: string;
  clone: string;
  project: string;
  /** The blocks run to make it, with how each ended. */
  steps: WorkspaceStep[];
  /** The packages the blocks packed, in the clone. */
  tarballs: { harness: string; mock: string };
}

export interface WorkspaceStep {
  label: string;
  script: string;
  result: Omit<ShellRun, 'group'>;
}

export const QUICK_START = 'Quick start';
/** The README's registry install, which is not run: the package is not published yet. */
export const REGISTRY_INSTALL = 'npm i -D game-service-harness msw';
const HARNESS_TARBALL = 'game-service-harness-0.1.0.tgz';
const MOCK_TARBALL = 'game-service-harness-mock-0.1.0.tgz';

/** The blocks of `page` under the heading `heading`, at any depth below it. */
export async function blocksUnder(page: string, heading: string): Promise<FencedBlock[]> {
  const { blocks } = parseMarkdown(await readFile(join(ROOT, page), 'utf8'));
  return blocks.filter((block) => block.headings.some((each) => each.text === heading));
}

/** The quick start's blocks under a heading of its own (a reader's kind), not its install blocks. */
export const underSubsection = (block: FencedBlock) => block.headings.at(-1)!.text !== QUICK_START;

/** The README's quick start: its install blocks (the registry's, then the clone's) and the blocks under its subsections. */
export async function quickStartBlocks(): Promise<FencedBlock[]> {
  return (await blocksUnder('README.md', QUICK_START)).filter((block) => block.headings.some((heading) => heading.level === 2));
}

const WORKSPACE = DOCS_WORKSPACE;
const READY = join(WORKSPACE, 'ready.json');
const FAILED = join(WORKSPACE, 'failed.txt');

async function runStep(cwd: string, label: string, script: string): Promise<WorkspaceStep> {
  const { group, ...result } = await runShell(cwd, script);
  stopGroup(group);
  if (result.code !== 0) throw new Error(`${label}\n${script}\nexit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  return { label, script, result };
}

async function makeWorkspace(): Promise<DocsWorkspace> {
  const clone = join(WORKSPACE, 'game-service-harness');
  const project = join(WORKSPACE, 'my-game');
  await cloneCheckout(clone);
  const install = (await quickStartBlocks()).filter((block) => block.lang === 'sh' && !underSubsection(block)).map((block) => block.code);
  const [, fromClone] = install;
  if (install[0] !== REGISTRY_INSTALL || fromClone?.startsWith('cd game-service-harness\n') !== true) {
    throw new Error(`the README's quick start installs from the registry, then from a clone; it shows:\n${install.join('\n---\n')}`);
  }
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const [, newProject = ''] = /`(mkdir my-game && cd my-game && npm init -y[^`]*)`/.exec(readme) ?? [];
  if (newProject === '') throw new Error('the README names no command that makes a new project (mkdir my-game && cd my-game && npm init -y)');
  const [lean] = (await blocksUnder('docs/hosts.md', 'The lean package')).filter((block) => block.code.includes('npm pack'));
  if (lean?.code.startsWith('cd game-service-harness\n') !== true) throw new Error("docs/hosts.md's lean package is not packed in a clone");
  const steps = [
    await runStep(WORKSPACE, 'README: a new project', newProject),
    await runStep(WORKSPACE, 'README: install from a clone', fromClone),
    await runStep(WORKSPACE, 'docs/hosts.md: the lean package from a clone', lean.code),
  ];
  return { workspace: WORKSPACE, clone, project, steps, tarballs: { harness: join(clone, HARNESS_TARBALL), mock: join(clone, MOCK_TARBALL) } };
}

/**
 * Writes a file the waiting files read whole or not at all: written beside it, then renamed over it (a file being
 * written is seen empty or cut by a reader that polls it).
 */
async function writeWhole(path: string, text: string): Promise<void> {
  await writeFile(`${path}.partial`, text);
  await rename(`${path}.partial`, path);
}

/** Waits for the file that makes the workspace to say it is ready, or why it is not. */
async function madeByAnother(): Promise<DocsWorkspace> {
  for (;;) {
    const ready = await readFile(READY, 'utf8').catch(() => undefined);
    if (ready !== undefined) return JSON.parse(ready) as DocsWorkspace;
    const failed = await readFile(FAILED, 'utf8').catch(() => undefined);
    if (failed !== undefined) throw new Error(`the docs workspace could not be made: ${failed}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The run's workspace: made by the first file that asks (a directory created is its claim), waited for by the others. */
export async function docsWorkspace(): Promise<DocsWorkspace> {
  try {
    await mkdir(WORKSPACE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return madeByAnother();
    throw error;
  }
  try {
    const made = await makeWorkspace();
    await writeWhole(READY, JSON.stringify(made));
    return made;
  } catch (error) {
    await writeWhole(FAILED, error instanceof Error ? error.message : String(error));
    throw error;
  }
}
