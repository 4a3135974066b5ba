import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RecordingResult } from '../conformance/contract/run-recording.js';
import { serveWebClient } from '../examples/web-client/serve.js';
import { type CliRun, startMock, useCli } from './support/cli.js';
import { startDeployment } from './support/deployment-server.js';
import { useTempDir } from './support/temp-dir.js';
import { SCREENSHOTS, useWebClientBrowser } from './support/web-client-browser.js';
import { outboxReader, watchForBlockedRequests } from './support/web-client-player.js';

/**
 * The example web client in Chromium plays through `game-service proxy --record` in front of a deployment-like
 * server that compresses its answers and departs from the spec where told to; then against `game-service mock
 * --config <the recording>`, offline, with no edit: the same screens, and a move changes the sector on screen.
 */

const cli = useCli();
const browser = useWebClientBrowser();
const temp = useTempDir('web-client-record-replay-');
const EMAIL = 'pilot@example.com';

/** What a person sees: the sector the ship is in and its credits, before and after a move, and on a reload. */
interface Screens {
  sectorBefore: string;
  credits: string;
  sectorAfter: string;
  afterReload: string;
}

async function shown(page: Page, selector: string): Promise<string> {
  await page.locator(`${selector}:visible, #error:visible`).first().waitFor({ timeout: 10_000 });
  if (await page.locator('#error').isVisible()) throw new Error(`the client showed "${await page.locator('#error').innerText()}" instead of ${selector}`);
  return page.locator(selector).innerText();
}

/** Sign-in (a wrong code first), a ship, the game screen, a move to Vega, and a reload that comes back to it. */
async function play(context: BrowserContext, clientOrigin: string, api: string, readOtp: (email: string) => Promise<string>): Promise<Screens> {
  const page = await context.newPage();
  const blocked = watchForBlockedRequests(page);
  await page.goto(`${clientOrigin}/?api=${api}`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await shown(page, '#verify-screen');
  const code = await readOtp(EMAIL);
  await page.getByLabel('6-digit code').fill(code.startsWith('1') ? `2${code.slice(1)}` : `1${code.slice(1)}`);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('alert').waitFor();
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await shown(page, '#ship-screen');
  await page.getByLabel('Ship name').fill('Nomad');
  await page.getByRole('button', { name: 'Launch' }).click();
  await page.getByRole('button', { name: 'Move to Vega' }).waitFor({ timeout: 10_000 });
  const sectorBefore = await shown(page, '#current-sector');
  const credits = await shown(page, '#credits');
  await page.getByRole('button', { name: 'Move to Vega' }).click();
  await page.locator('#current-sector', { hasText: 'Vega' }).waitFor({ timeout: 10_000 });
  const sectorAfter = await shown(page, '#current-sector');
  await page.reload();
  await page.locator('#current-sector', { hasText: 'Vega' }).waitFor({ timeout: 10_000 });
  const afterReload = await shown(page, '#current-sector');
  expect(blocked).toEqual([]);
  return { sectorBefore, credits, sectorAfter, afterReload };
}

async function startProxy(target: string, args: readonly string[]): Promise<{ process: CliRun; url: string }> {
  const process = cli.start(['proxy', '--target', target, '--port', '0', ...args]);
  const [, url = ''] = await process.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+), forwarding to /);
  return { process, url };
}

describe('the example web client recorded through the proxy, then replayed by the mock offline', { timeout: 90_000 }, () => {
  it('reports exactly the planted departures, passes a bomb and a corrupt body unjudged, and the recording replays the same screens with no edit', async () => {
    const client = await serveWebClient({ port: 0 });
    const deployment = await startDeployment({ gameOrigins: [client.origin], departures: ['counts-game-origin', 'token-for-30-days'] });
    const dir = temp();
    const files = { record: join(dir, 'rec.json'), json: join(dir, 'findings.json') };
    try {
      const proxy = await startProxy(deployment.url, ['--game-origin', client.origin, '--record', files.record, '--json', files.json]);
      const recordedContext = await browser().newContext();
      const recorded = await play(recordedContext, client.origin, proxy.url, async (email) => deployment.codeFor(email)!);
      await recordedContext.close();
      // A decompression bomb and a corrupt body: passed on unjudged, counted, and the proxy keeps serving.
      for (const mode of ['bomb', 'corrupt'] as const) {
        deployment.setBodyMode(mode);
        await (await fetch(`${proxy.url}/api/player`)).arrayBuffer().catch(() => undefined);
      }
      deployment.setBodyMode('normal');
      expect((await fetch(`${proxy.url}/health`)).status).toBe(200);
      proxy.process.signal('SIGTERM');
      const exit = await proxy.process.waitForExit();
      console.log(`proxy:\n${proxy.process.stdout.slice(proxy.process.stdout.indexOf('SIGTERM'))}`);
      const report = JSON.parse(readFileSync(files.json, 'utf8')) as { exchanges: number; byRule: { side: string; rule: string; count: number }[] };
      // Only what the server was told to get wrong: its legal choices (Reset in milliseconds, 401 for the wrong
      // code, fields the spec does not name, compressed chunked answers) are not findings.
      expect(report.byRule.map(({ side, rule }) => `${side} ${rule}`).sort(), proxy.process.stdout).toEqual(['server RL-EXEMPT', 'server TOKEN-LIFETIME']);
      expect(exit.code).toBe(1);
      expect(proxy.process.stdout).toContain('1 exchange passed on unjudged: a body past the decoded-size cap');
      expect(proxy.process.stdout).toContain('1 exchange passed on unjudged: a body that failed to decode');
      expect(recorded).toEqual({ sectorBefore: 'Sol', credits: expect.stringContaining('1000'), sectorAfter: 'Vega', afterReload: 'Vega' });

      const mock = await startMock(cli, ['--port', '0', '--config', files.record]);
      const replayContext = await browser().newContext();
      const replayed = await play(replayContext, client.origin, mock.url, outboxReader(mock.url));
      const page = replayContext.pages()[0]!;
      await page.screenshot({ path: join(SCREENSHOTS, 'replayed-recording.png'), fullPage: true });
      await replayContext.close();
      expect(replayed).toEqual(recorded);
      const routes = (JSON.parse(readFileSync(files.record, 'utf8')) as { routes: unknown[] }).routes.length;
      console.log(`record → replay: ${report.exchanges} exchanges, ${routes} routes recorded, findings ${JSON.stringify(report.byRule)}`);
    } finally {
      await deployment.close();
      await client.close();
    }
  });

  it("reports nothing of a session where the server makes only its legal choices, the page's origin an external caller", async () => {
    const client = await serveWebClient({ port: 0 });
    const deployment = await startDeployment();
    try {
      const proxy = await startProxy(deployment.url, []);
      const context = await browser().newContext();
      const screens = await play(context, client.origin, proxy.url, async (email) => deployment.codeFor(email)!);
      await context.close();
      proxy.process.signal('SIGTERM');
      const exit = await proxy.process.waitForExit();
      expect(screens).toMatchObject({ sectorBefore: 'Sol', sectorAfter: 'Vega', afterReload: 'Vega' });
      expect(proxy.process.stdout).toMatch(/\n\d+ exchanges, 0 server findings, 0 client findings\n/);
      expect(exit.code, proxy.process.stdout).toBe(0);
    } finally {
      await deployment.close();
      await client.close();
    }
  });

  it('checks the recorded session of the client as its contract: clean against the deployment, each drift of a release found once', async () => {
    const client = await serveWebClient({ port: 0 });
    const dir = temp();
    const files = { record: join(dir, 'rec.json'), codes: join(dir, 'codes.log'), codesNow: join(dir, 'codes-now.log'), json: join(dir, 'contract.json') };
    writeFileSync(files.codes, '');
    writeFileSync(files.codesNow, '');
    const deployment = await startDeployment({ gameOrigins: [client.origin], codeLog: files.codes });
    const release = await startDeployment({ drifts: ['sector-name-renamed', 'ship-credits-as-string'], codeLog: files.codesNow });
    try {
      const proxy = await startProxy(deployment.url, ['--game-origin', client.origin, '--record', files.record]);
      const context = await browser().newContext();
      await play(context, client.origin, proxy.url, async (email) => deployment.codeFor(email)!);
      await context.close();
      proxy.process.signal('SIGTERM');
      await proxy.process.waitForExit();
      const check = async (target: string, codes: string) => {
        const run = await cli.run(['check', '--base-url', target, '--recording', files.record, '--otp-source', `log:${codes}`, '--json', files.json]);
        const result = JSON.parse(readFileSync(files.json, 'utf8')) as RecordingResult;
        return {
          run,
          result,
          drifts: result.routes.flatMap((route) => route.drifts.map((drift) => `${route.route} ${drift.where}: ${drift.recorded} → ${drift.now}`)),
        };
      };
      const clean = await check(deployment.url, files.codes);
      console.log(
        `the web client's contract: ${clean.result.sent} of ${clean.result.requests} requests of ${clean.result.routes.length} routes sent again, ${clean.drifts.length} drifts`,
      );
      expect(clean.drifts, clean.run.stdout).toEqual([]);
      expect(clean.result.routes.flatMap((route) => route.notSent)).toEqual([]);
      expect(clean.run.code, clean.run.stdout).toBe(0);
      const drifted = await check(release.url, files.codesNow);
      expect(drifted.drifts.toSorted(), drifted.run.stdout).toEqual([
        'GET /api/galaxy/:galaxyId/sector /sector/name: string → missing',
        'GET /api/player/ship /ship/credits: number → string',
      ]);
      expect(drifted.run.code).toBe(1);
    } finally {
      await release.close();
      await deployment.close();
      await client.close();
    }
  });

  it('replays a path the recording never took: another move and a reload show the sector moved to, every request of the game 2xx, the points falling', async () => {
    const client = await serveWebClient({ port: 0 });
    const deployment = await startDeployment({ gameOrigins: [client.origin] });
    const record = join(temp(), 'rec.json');
    try {
      const proxy = await startProxy(deployment.url, ['--game-origin', client.origin, '--record', record]);
      const recordedContext = await browser().newContext();
      await play(recordedContext, client.origin, proxy.url, async (email) => deployment.codeFor(email)!);
      await recordedContext.close();
      proxy.process.signal('SIGTERM');
      await proxy.process.waitForExit();
    } finally {
      await deployment.close();
    }
    try {
      const mock = await startMock(cli, ['--port', '0', '--config', record, '--game-origin', client.origin]);
      const context = await browser().newContext();
      const page = await context.newPage();
      const answered: { path: string; status: number }[] = [];
      page.on('response', (response) => {
        const url = new URL(response.url());
        if (url.origin === new URL(mock.url).origin && response.request().method() !== 'OPTIONS')
          answered.push({ path: `${url.pathname}${url.search}`, status: response.status() });
      });
      const readOtp = outboxReader(mock.url);
      await page.goto(`${client.origin}/?api=${mock.url}`);
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await shown(page, '#verify-screen');
      await page.getByLabel('6-digit code').fill(await readOtp(EMAIL));
      await page.getByRole('button', { name: 'Verify' }).click();
      await shown(page, '#ship-screen');
      await page.getByLabel('Ship name').fill('Drifter');
      await page.getByRole('button', { name: 'Launch' }).click();
      // The recorded player moved to Vega; this one goes to Sirius, sector 13, whose own answer was never recorded.
      await page.getByRole('button', { name: 'Move to Sirius' }).waitFor({ timeout: 10_000 });
      const pointsBefore = Number(await shown(page, '#action-points'));
      await page.getByRole('button', { name: 'Move to Sirius' }).click();
      await page.locator('#current-sector', { hasText: 'Sirius' }).waitFor({ timeout: 10_000 });
      const sectorAfter = await shown(page, '#current-sector');
      const pointsAfter = Number(await shown(page, '#action-points'));
      await page.reload();
      await page.locator('#current-sector', { hasText: 'Sirius' }).waitFor({ timeout: 10_000 });
      const afterReload = await shown(page, '#current-sector');
      await page.screenshot({ path: join(SCREENSHOTS, 'replayed-another-path.png'), fullPage: true });
      // The generalised answer's mark, read by the page's own script across origins.
      const token = await page.evaluate(() => Object.values(localStorage).map((text) => (JSON.parse(text) as { token?: string }).token)[0]);
      const generalisedFrom = await page.evaluate(
        async ({ api, bearer }) =>
          (await fetch(`${api}/api/galaxy/1/sector?id=13`, { headers: { authorization: `Bearer ${bearer}` } })).headers.get('x-mock-generalised'),
        { api: mock.url, bearer: token! },
      );
      await context.close();
      const failed = answered.filter(({ status }) => status >= 300);
      const generalised = (await (await fetch(`${mock.url}/__mock/journal`)).json()) as { entries: { generalisedFrom: string | null }[] };
      console.log(
        `replay off the recorded path in Chromium: ${answered.length} requests, ${failed.length} not 2xx, ${generalised.entries.filter((entry) => entry.generalisedFrom !== null).length} generalised; points ${pointsBefore} → ${pointsAfter}`,
      );
      expect({ sectorAfter, afterReload }).toEqual({ sectorAfter: 'Sirius', afterReload: 'Sirius' });
      // The one answer not 2xx is the spec's to a player without a ship yet, before the launch, as the deployment's was.
      expect(failed).toEqual([{ path: '/api/player/ship', status: 404 }]);
      expect(answered.findIndex(({ status }) => status === 404)).toBeLessThan(answered.findIndex(({ path }) => path.startsWith('/api/galaxy/')));
      expect(answered.some(({ path }) => path === '/api/galaxy/1/sector?id=13')).toBe(true);
      expect(pointsAfter).toBe(pointsBefore - 1);
      expect(generalisedFrom).toMatch(/^query id=\d+$/);
    } finally {
      await client.close();
    }
  });
});
