import { availableParallelism } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseVariants, VARIANT_NAMES } from '../src/core/variant-choice.js';
import { assertBuilt, CliProcess } from './support/cli.js';
import { limiter } from './support/limiter.js';

/**
 * The proof that every variant is legal: `check` and `fuzz` pass against `game-service mock --variant …` for each
 * variant on its own, for all of them at once, for the public deployment's, and for random draws.
 */

const GAME_ORIGIN = 'http://conformance.game.test';
const RUN_TIMEOUT_MS = 60_000;
const SELECTIONS = [...VARIANT_NAMES, 'all', 'public-deployment', 'random:1', 'random:2'];
/** Runs at once: each is a mock, a suite and a fuzzer, mostly CPU. */
const inSlot = limiter(Math.max(2, Math.min(4, availableParallelism())));

/** The target flags a variant asks for: the header it reads client addresses from, the ship payload it takes. */
function targetFlags(selection: string): string[] {
  const { names } = chooseVariants([selection]);
  return [
    ...(names.includes('client-ip-cf-connecting-ip') ? ['--client-ip-header', 'CF-Connecting-IP'] : ['--forwarded-for']),
    ...(names.includes('ship-payload-galaxy') ? ['--ship-payload', '{"galaxyId":1,"shipName":"Conformance"}'] : []),
  ];
}

/** A command run to its end; tests here run concurrently, so each owns its processes (no shared clean-up). */
async function run(args: readonly string[]) {
  const child = new CliProcess(args, {});
  try {
    const exit = await child.waitForExit(RUN_TIMEOUT_MS);
    return { code: exit.code, stdout: child.stdout, stderr: child.stderr };
  } finally {
    child.child.kill('SIGKILL');
  }
}

async function checkAndFuzz(selection: string) {
  const mock = new CliProcess(['mock', '--port', '0', '--trust-proxy', '--game-origin', GAME_ORIGIN, '--variant', selection], {});
  try {
    const [, url = ''] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
    const flags = ['--base-url', url, '--game-origin', GAME_ORIGIN, ...targetFlags(selection)];
    return { check: await run(['check', ...flags]), fuzz: await run(['fuzz', ...flags, '--num-runs', '30']) };
  } finally {
    mock.child.kill('SIGKILL');
    await mock.exited;
  }
}

beforeAll(() => assertBuilt());

describe('check and fuzz pass against every legal variant of the mock', () => {
  it.concurrent.each(SELECTIONS)(
    '--variant %s',
    async (selection) => {
      const { check, fuzz } = await inSlot(() => checkAndFuzz(selection));
      expect(check.code, `check --variant ${selection}:\n${check.stdout.slice(-3_000)}\n${check.stderr.slice(-1_000)}`).toBe(0);
      expect(check.stdout).toMatch(/\n[1-9]\d* passed, 0 failed/);
      expect(fuzz.code, `fuzz --variant ${selection}:\n${fuzz.stdout.slice(-3_000)}\n${fuzz.stderr.slice(-1_000)}`).toBe(0);
    },
    SELECTIONS.length * RUN_TIMEOUT_MS,
  );
});
