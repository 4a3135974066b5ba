import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CliProcess, RUN_HANG_BOUND_MS } from './support/cli.js';
import { limiter } from './support/limiter.js';
import { startMutatingProxy, type ProxyBehaviour } from './support/mutating-proxy.js';
import { MUTATIONS } from './support/mutations.js';
import { VARIATIONS } from './support/variations.js';

/**
 * The proof that the suite catches broken servers: `game-service check` against the mock behind a proxy
 * that breaks one rule must fail that rule's check; behind a proxy that makes a legal choice, it must pass.
 */

/** Suite runs at once: each is a vitest process of its own, mostly CPU (2 on a 2-core machine). */
const CONCURRENCY = Math.max(2, Math.min(6, availableParallelism()));
/** A test waits for a free slot, then runs: room for a few runs ahead of it. */
const TEST_TIMEOUT_MS = 4 * RUN_HANG_BOUND_MS;
/** The upstream trusts the proxy's X-Forwarded-For, so the suite can stand for many clients (or the header the behaviour reads). */
function suiteFlags({ target }: ProxyBehaviour): string[] {
  return [
    ...(target?.clientIpHeader === undefined ? ['--forwarded-for'] : ['--client-ip-header', target.clientIpHeader]),
    ...(target?.shipPayload === undefined ? [] : ['--ship-payload', target.shipPayload]),
  ];
}

/** The part of `check --json` these tests read. */
interface JsonReport {
  checks: { title: string; state: string }[];
  error?: string;
}

interface SuiteRun {
  code: number | null;
  failed: string[];
  /** Errors outside any check (a check file that did not load, a hook that threw). */
  moduleErrors: string[];
  summary: string;
  /** `--seed N`, to replay the run. */
  replay: string;
  output: string;
  ms: number;
}

const inSlot = limiter(CONCURRENCY);
let dir = '';
const results: { name: string; expected: string; outcome: string; ms: number }[] = [];
const ORDER = [...MUTATIONS, ...VARIATIONS].map((behaviour) => behaviour.name);

/** Starts a fresh upstream and proxy, runs the whole suite against it, and reads the JSON report. */
async function runSuite(behaviour: ProxyBehaviour): Promise<SuiteRun> {
  const proxy = await startMutatingProxy(behaviour);
  const report = join(dir, `${behaviour.name}.json`);
  const started = Date.now();
  const cli = new CliProcess(['check', '--base-url', proxy.url, ...suiteFlags(behaviour), '--json', report], {});
  try {
    const exit = await cli.waitForExit(RUN_HANG_BOUND_MS).catch((error: unknown) => {
      cli.child.kill('SIGKILL');
      throw error;
    });
    const ms = Date.now() - started;
    const parsed: JsonReport = existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as JsonReport) : { checks: [] };
    const failed = parsed.checks.filter((check) => check.state === 'failed').map((check) => check.title);
    const moduleErrors = parsed.error === undefined ? [] : [parsed.error];
    const summary = /\d+ passed, \d+ failed, \d+ skipped/.exec(cli.stdout)?.[0] ?? '(no summary)';
    const replay = /replay with (--seed \d+)/.exec(cli.stdout)?.[1] ?? '(no seed printed)';
    const output = `exit ${exit.code}, ${summary}\nstderr: ${cli.stderr.slice(-2_000)}\nstdout (end): ${cli.stdout.slice(-3_000)}`;
    return { code: exit.code, failed, moduleErrors, summary, replay, output, ms };
  } finally {
    await cli.exited;
    await proxy.close();
  }
}

/** Departures that break one sentence only, each to be reported once: on its rule, and on no other. */
const REPORTED_ONCE = new Set([
  'null-body-500',
  'unreadable-body-500',
  'non-string-email-500',
  'numeric-otp-500',
  'register-without-email-accepted',
  'verify-without-otp-accepted',
  '429-body-without-error',
  'register-message-empty',
  'empty-error-on-404',
  'disposable-domain-by-letter-case',
  'challenge-token-refused',
  'reset-a-quarter-hour-ahead',
]);

/** A failed check is about `rule` when its title names the rule id (titles start with it). */
const namesRule = (title: string, rule: string) => title.split(' ').includes(rule);

beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'game-service-mutations-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  results.sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name));
  const width = Math.max(...results.map((result) => result.name.length));
  console.log(
    [
      'Mutation testing of the suite:',
      ...results.map((result) => `  ${result.name.padEnd(width)}  ${result.expected.padEnd(14)} ${result.outcome} (${result.ms} ms)`),
    ].join('\n'),
  );
});

describe('the suite fails each broken server, on the rule it breaks', () => {
  it.concurrent.each(MUTATIONS.map((mutation) => [`${mutation.name} (${mutation.breaks}): ${mutation.does}`, mutation] as const))(
    '%s',
    async (_title, mutation) => {
      const run = await inSlot(() => runSuite(mutation));
      const onRule = run.failed.filter((title) => namesRule(title, mutation.breaks));
      const others = run.failed.filter((title) => !namesRule(title, mutation.breaks)).map((title) => title.split(' ')[0]);
      results.push({
        name: mutation.name,
        expected: mutation.breaks,
        outcome:
          onRule.length > 0
            ? `caught${others.length > 0 ? ` (also: ${[...new Set(others)].join(', ')})` : ''}`
            : `NOT caught: exit ${run.code}, failed: ${[...new Set(others)].join(', ') || 'none'}`,
        ms: run.ms,
      });
      const failedList = run.failed.length === 0 ? '  (none)' : run.failed.map((title) => `  - ${title}`).join('\n');
      expect(run.code, `the suite must fail (exit 1) behind ${mutation.name}\n${run.output}`).toBe(1);
      expect(
        onRule.length,
        `no failed check names ${mutation.breaks} (${run.replay}); failed checks:\n${failedList}\n${run.moduleErrors.join('\n')}`,
      ).toBeGreaterThan(0);
      if (REPORTED_ONCE.has(mutation.name)) expect(others, `reported on other rules too (${run.replay}):\n${failedList}`).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('the suite passes each legal variation', () => {
  it.concurrent.each(VARIATIONS.map((variation) => [`${variation.name}: ${variation.does}`, variation] as const))(
    '%s',
    async (_title, variation) => {
      const run = await inSlot(() => runSuite(variation));
      results.push({
        name: variation.name,
        expected: 'pass',
        outcome:
          run.code === 0
            ? `passed (${run.summary})`
            : `FAILED: exit ${run.code}, failed: ${run.failed.map((title) => title.split(' ')[0]).join(', ') || 'none'}`,
        ms: run.ms,
      });
      const failedList = run.failed.map((title) => `  - ${title}`).join('\n');
      expect(
        run.code,
        `the suite must pass (exit 0) behind ${variation.name}; failed checks:\n${failedList}\n${run.moduleErrors.join('\n')}\n${run.output}`,
      ).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
