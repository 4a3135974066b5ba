// `npm test`: the Debian packages the tests drive, lint, typecheck, build, then every test project, each step
// timed. The tests run in this process (vitest's own API): arguments after `npm test --` go to vitest.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseCLI, startVitest } from 'vitest/node';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (path) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));
const timings = [];

/** Runs one step, prints how long it took, and stops `npm test` where it fails (the tool has printed why). */
async function step(name, task) {
  const started = performance.now();
  try {
    await task();
  } catch {
    console.error(`\nnpm test: ${name} failed after ${seconds(started)}.`);
    process.exit(1);
  }
  timings.push([name, seconds(started)]);
  console.log(`npm test: ${name} took ${seconds(started)}.`);
}

const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
/** A tool of node_modules run on this Node (the project's Node 24), its output shown as it comes. */
const tool = (path, args) => execFileSync(process.execPath, [bin(path), ...args], { cwd: ROOT, stdio: 'inherit' });

await step('system packages', () => import('./system-packages.js'));
await step('lint', () => tool('@biomejs/biome/bin/biome', ['check', '--error-on-warnings', '.']));
await step('typecheck', () => tool('typescript/bin/tsc', ['-p', 'tsconfig.json']));
await step('build', () => tool('typescript/bin/tsc', ['-p', 'tsconfig.build.json']));

const { filter, options } = parseCLI(['vitest', 'run', ...process.argv.slice(2)]);
const started = performance.now();
const vitest = await startVitest('test', filter, { ...options, run: true, watch: false });
await vitest?.close();
timings.push(['tests', seconds(started)]);
console.log(`\nnpm test: ${timings.map(([name, time]) => `${name} ${time}`).join(', ')}.`);
// vitest sets the exit code: 1 when a test failed.
if (vitest === undefined) process.exitCode = 1;
