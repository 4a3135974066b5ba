import { describe, expect, it } from 'vitest';
import { CHECK_FILES } from '../conformance/checks/check-files.js';
import type { CheckResult } from '../conformance/report/check-result.js';
import { RUN_HANG_BOUND_MS } from './support/cli.js';
import { startMutatingProxy, type MutatingProxy, type ProxyBehaviour } from './support/mutating-proxy.js';
import { MUTATIONS } from './support/mutations.js';
import { runSuite } from './support/suite-run.js';

/** Each check file stands alone: alone it gets the verdicts of a full run, replays the same inputs from the seed, and shares nothing with another run. */

const SEED = 1234;

/** The suite with `--seed SEED` against the proxy, `only` the checks named; the checks as its report lists them. */
async function check(proxy: MutatingProxy, only?: string): Promise<CheckResult[]> {
  const run = await runSuite({ baseUrl: proxy.url, forwardedFor: true, seed: SEED, ...(only === undefined ? {} : { only }) });
  expect(run.result.exitCode, run.output.stderr).not.toBe(2);
  return run.result.checks;
}

const stateByTitle = (checks: readonly CheckResult[]) => new Map(checks.map((entry) => [entry.title, entry.state]));

async function withProxy<T>(behaviour: ProxyBehaviour | undefined, use: (proxy: MutatingProxy) => Promise<T>): Promise<T> {
  const proxy = await startMutatingProxy(behaviour);
  try {
    return await use(proxy);
  } finally {
    await proxy.close();
  }
}

const mutation = (name: string) => MUTATIONS.find((candidate) => candidate.name === name)!;

/** Each file alone, against a fresh upstream: every check gets the state it got in the full run. */
async function expectSameVerdictsAlone(behaviour: ProxyBehaviour | undefined, files: readonly string[]): Promise<void> {
  const full = stateByTitle(await withProxy(behaviour, (proxy) => check(proxy)));
  for (const file of files) {
    const alone = await withProxy(behaviour, (proxy) => check(proxy, `${file}.check.ts`));
    expect(alone.length, `${file}.check.ts ran no check`).toBeGreaterThan(0);
    for (const { title, state } of alone) expect({ file, title, state }).toEqual({ file, title, state: full.get(title) });
  }
}

describe('a check file run alone', () => {
  it(
    'gets the verdicts of the full run, file by file (the traffic invariants aside: they judge the traffic of the run they are in)',
    async () => {
      await expectSameVerdictsAlone(
        undefined,
        CHECK_FILES.filter((file) => file !== 'traffic'),
      );
    },
    (CHECK_FILES.length + 1) * RUN_HANG_BOUND_MS,
  );

  it(
    'gets the same failures as in the full run where a shared fixture breaks (the first verification) and where a property fails',
    async () => {
      await expectSameVerdictsAlone(mutation('token-not-uuid'), ['verify', 'register']);
      await expectSameVerdictsAlone(mutation('text-404'), ['envelopes', 'routing']);
    },
    6 * RUN_HANG_BOUND_MS,
  );

  it(
    'generates the same inputs from the same --seed as with the others: a failing property shrinks to the same counterexample, with the same seed and path',
    async () => {
      const counterexamples = async (only?: string) => {
        const checks = await withProxy(mutation('text-404'), (proxy) => check(proxy, only));
        return checks
          .filter((entry) => entry.title.includes('property') && entry.state === 'failed')
          .map((entry) => ({
            title: entry.title,
            replay: /^\{ seed: .*$/m.exec(entry.failures[0]!.message)?.[0],
            counterexample: /^Counterexample: .*$/m.exec(entry.failures[0]!.message)?.[0],
          }));
      };
      const inFull = (await counterexamples()).filter((entry) => entry.title.startsWith('BODY-JSON'));
      const alone = await counterexamples('envelopes.check.ts');
      expect(inFull.length).toBeGreaterThan(0);
      expect(inFull[0]!.counterexample).toMatch(/^Counterexample: /);
      expect(alone.filter((entry) => entry.title.startsWith('BODY-JSON'))).toEqual(inFull);
    },
    2 * RUN_HANG_BOUND_MS,
  );
});

describe('two runs in one process', () => {
  it('share no fixture: each makes its own first verification', async () => {
    await withProxy(undefined, async (proxy) => {
      for (let run = 0; run < 2; run++) {
        const { result } = await runSuite({ baseUrl: proxy.url, forwardedFor: true, seed: SEED, only: 'VERIFY-OK', keepJournal: true });
        expect(result.exitCode, result.error).toBe(0);
        expect(result.passed).toBeGreaterThan(0);
      }
      // Each run removes its players and codes at its end: the journal, kept, still holds what they did.
      const verifications = `${proxy.upstreamUrl}/__mock/journal/count?method=POST&path=/api/auth/verify-email&status=200`;
      expect(((await (await fetch(verifications)).json()) as { count: number }).count).toBe(2);
    });
  }, 60_000);
});
