import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseVariants, VARIANT_NAMES } from '../src/core/variant-choice.js';
import { InProcessCli, RUN_HANG_BOUND_MS } from './support/cli.js';
import { limiter } from './support/limiter.js';

/**
 * The proof that every variant is legal: `check` and `fuzz` pass against `game-service mock --variant …` for each
 * variant on its own, for all of them at once, for the public deployment's, and for random draws, with the user's
 * ship and player fields and routes configured around the spec's. They reach it
 * through `game-service proxy`, which must judge all of that traffic without a finding on the server's side.
 * Every command runs in this process, through the CLI's own `main`.
 */

const GAME_ORIGIN = 'http://conformance.game.test';
/** Ship and player fields of the user's, routes that write them, and the mock's GET /api/player/ship replaced. */
const USER_RESOURCES = 'fixtures/configs/user-resources.json';
const SELECTIONS = [...VARIANT_NAMES, 'all', 'public-deployment', 'random:1', 'random:2'];
/** Runs at once: each is a mock, a suite and a fuzzer, mostly CPU. */
const inSlot = limiter(Math.max(1, Math.min(4, availableParallelism() - 1)));

/** The header a variant reads client addresses from. */
function addressHeader(selection: string): string {
  return chooseVariants([selection]).names.includes('client-ip-cf-connecting-ip') ? 'CF-Connecting-IP' : 'X-Forwarded-For';
}

/** The target flags a variant asks for: the header it reads client addresses from, the ship payload it takes. */
function targetFlags(selection: string): string[] {
  const { names } = chooseVariants([selection]);
  return [
    ...(names.includes('client-ip-cf-connecting-ip') ? ['--client-ip-header', 'CF-Connecting-IP'] : ['--forwarded-for']),
    ...(names.includes('ship-payload-galaxy') ? ['--ship-payload', '{"galaxyId":1,"shipName":"Conformance"}'] : []),
  ];
}

/** What `proxy --json` says of the server, read back once the proxy has stopped. */
interface ProxyReport {
  findings: { server: number; client: number };
  kept: { side: string; rule: string; message: string; exchange: { request: { method: string; url: string }; response: { status: number } } }[];
}

/** A command run to its end; tests here run concurrently, so each owns its runs (no shared clean-up). */
async function run(args: readonly string[]) {
  const command = new InProcessCli(args);
  const exit = await command.waitForExit(RUN_HANG_BOUND_MS);
  return { code: exit.code, stdout: command.stdout, stderr: command.stderr };
}

async function checkAndFuzz(selection: string) {
  const mock = new InProcessCli(['mock', '--port', '0', '--trust-proxy', '--game-origin', GAME_ORIGIN, '--config', USER_RESOURCES, '--variant', selection]);
  const report = join(reports, `${selection.replace(/[^a-z0-9-]/gi, '_')}.json`);
  let proxy: InProcessCli | undefined;
  try {
    const [, mockUrl = ''] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
    proxy = new InProcessCli([
      'proxy',
      '--target',
      mockUrl,
      '--port',
      '0',
      '--game-origin',
      GAME_ORIGIN,
      '--client-ip-header',
      addressHeader(selection),
      '--fail-on',
      'server',
      '--json',
      report,
    ]);
    const [, url = ''] = await proxy.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const flags = ['--base-url', url, '--game-origin', GAME_ORIGIN, ...targetFlags(selection)];
    const check = await run(['check', ...flags]);
    // Fifteen sequences of up to fifty commands meet every bucket's limit; fuzz.test.ts fuzzes the proxy's variations longer.
    const fuzz = await run(['fuzz', ...flags, '--num-runs', '15']);
    proxy.signal('SIGTERM');
    const proxyExit = await proxy.waitForExit(10_000);
    return { check, fuzz, proxy: { code: proxyExit.code, stdout: proxy.stdout, report: JSON.parse(readFileSync(report, 'utf8')) as ProxyReport } };
  } finally {
    await proxy?.stopWhenListening();
    await mock.stopWhenListening();
    await mock.exited;
  }
}

/** The failed checks of a run's output, each with the first lines of its failure, for a failure message. */
function failedChecks(stdout: string): string {
  return stdout
    .split('\n✗ ')
    .slice(1)
    .map((block) => `✗ ${block.split('\n').slice(0, 12).join('\n')}`)
    .join('\n');
}

/** The proxy's server findings, one line each, for a failure message. */
function serverFindings(report: ProxyReport): string {
  return report.kept
    .filter((finding) => finding.side === 'server')
    .map(
      (finding) =>
        `${finding.rule}: ${finding.message} (${finding.exchange.request.method} ${finding.exchange.request.url} → ${finding.exchange.response.status})`,
    )
    .join('\n');
}

let reports = '';
beforeAll(() => {
  reports = mkdtempSync(join(tmpdir(), 'variants-proxy-'));
});
afterAll(() => rmSync(reports, { recursive: true, force: true }));

describe('check and fuzz pass against every legal variant of the mock', () => {
  it.concurrent.each(SELECTIONS)(
    '--variant %s',
    async (selection) => {
      const { check, fuzz, proxy } = await inSlot(() => checkAndFuzz(selection));
      expect(check.code, `check --variant ${selection}:\n${failedChecks(check.stdout)}\n${check.stdout.slice(-3_000)}\n${check.stderr.slice(-1_000)}`).toBe(0);
      expect(check.stdout).toMatch(/\n[1-9]\d* passed, 0 failed/);
      expect(fuzz.code, `fuzz --variant ${selection}:\n${fuzz.stdout.slice(-3_000)}\n${fuzz.stderr.slice(-1_000)}`).toBe(0);
      expect(proxy.report.findings.server, `proxy in front of --variant ${selection}:\n${serverFindings(proxy.report)}`).toBe(0);
      expect(proxy.code, proxy.stdout.slice(-2_000)).toBe(0);
    },
    SELECTIONS.length * RUN_HANG_BOUND_MS,
  );
});
