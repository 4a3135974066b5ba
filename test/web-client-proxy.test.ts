import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveWebClient } from '../examples/web-client/serve.js';
import { SCREENSHOTS, useWebClientBrowser } from './support/web-client-browser.js';
import { type CliRun, startMock, useCli } from './support/cli.js';
import {
  COUNTED_FIRST_SESSION,
  COUNTED_AFTER_RELOAD,
  EXEMPT_FIRST_SESSION,
  EXEMPT_AFTER_RELOAD,
  FIRST_SESSION_SCREEN,
  readable,
  AFTER_RELOAD_SCREEN,
} from './support/web-client-answers.js';
import { getJson, loggedAnswers, outboxReader, playFirstSession, reloadAndResume, watchForBlockedRequests } from './support/web-client-player.js';
import { checkHarAgainstDocument } from './support/har-against-document.js';
import type { OpenApiDocument } from '../src/spec/index.js';

const MOCK_CONFIG = 'examples/web-client/mock.json';
const EMAIL = 'pilot@example.com';

const cli = useCli();
const browser = useWebClientBrowser();
const harDir = mkdtempSync(join(tmpdir(), 'web-client-proxy-har-'));
afterAll(() => rmSync(harDir, { recursive: true, force: true }));

/** What the mock's journal holds of the page's traffic: every request it answered from that origin, preflights included. */
async function journalFrom(mockUrl: string, origin: string): Promise<{ method: string; path: string }[]> {
  const { entries } = (await getJson(`${mockUrl}/__mock/journal?limit=100`)) as { entries: Array<{ method: string; path: string; origin: string | null }> };
  return entries.filter((entry) => entry.origin === origin).map(({ method, path }) => ({ method, path }));
}

async function startProxy(target: string, args: readonly string[]): Promise<{ process: CliRun; url: string }> {
  const process = cli.start(['proxy', '--target', target, '--port', '0', ...args]);
  const [, url = ''] = await process.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+), forwarding to /);
  return { process, url };
}

/** The client on its own origin, the proxy on another, the mock behind it; `gameOrigin` names the page's origin to both. */
async function playThroughProxy(gameOrigin: boolean, screenshotName: string, variant?: string) {
  const client = await serveWebClient({ port: 0 });
  const context = await browser().newContext();
  try {
    const originArgs = gameOrigin ? ['--game-origin', client.origin] : [];
    const variantArgs = variant === undefined ? [] : ['--variant', variant];
    const mock = await startMock(cli, ['--port', '0', '--config', MOCK_CONFIG, ...originArgs, ...variantArgs]);
    const har = join(harDir, `${screenshotName}.har`);
    const proxy = await startProxy(mock.url, [...originArgs, '--har', har]);
    const page = await context.newPage();
    const blocked = watchForBlockedRequests(page);
    const readOtp = outboxReader(mock.url);
    await page.goto(`${client.origin}/?api=${proxy.url}`);
    expect(await page.locator('#api-base-url').innerText()).toBe(proxy.url);

    const first = await playFirstSession(page, EMAIL, readOtp);
    const firstAnswers = readable(await loggedAnswers(page));
    const screenshotPath = join(SCREENSHOTS, screenshotName);
    await page.screenshot({ path: screenshotPath, fullPage: true });
    const again = await reloadAndResume(page);
    const againAnswers = readable(await loggedAnswers(page));
    const findings = (await getJson(`${proxy.url}/__proxy/findings`)) as { exchanges: number; findings: number; byRule: unknown[]; kept: unknown[] };
    const journal = await journalFrom(mock.url, client.origin);
    const document = (await getJson(`${mock.url}/__mock/openapi.json`)) as OpenApiDocument;
    proxy.process.signal('SIGTERM');
    const exit = await proxy.process.waitForExit();
    return { first, firstAnswers, again, againAnswers, blocked, screenshotPath, findings, journal, exit, proxyOutput: proxy.process.stdout, har, document };
  } finally {
    await context.close();
    await client.close();
  }
}

type Run = Awaited<ReturnType<typeof playThroughProxy>>;

/** Every exchange of the session the proxy kept in its HAR, against the OpenAPI document of the mock that answered it. */
function expectSessionAsDocumented(run: Run): void {
  expect(checkHarAgainstDocument(run.har, run.document), 'the session is in the HAR').toBe(run.findings.exchanges);
}

/** Nothing to report: no finding on the page's data or printed, every request the mock answered for the page seen, exit 0. */
function expectNothingReported(run: Run): void {
  // What the run reported, for a person reading the test's output.
  console.log(`proxy: ${run.proxyOutput.trim().split('\n').at(-1)}`);
  expect(run.findings, run.proxyOutput).toMatchObject({ findings: 0, byRule: [], kept: [] });
  const apiRequests = run.firstAnswers.length + run.againAnswers.length;
  expect(run.journal.filter((entry) => entry.method !== 'OPTIONS')).toHaveLength(apiRequests);
  expect(run.journal.some((entry) => entry.method === 'OPTIONS')).toBe(true);
  expect(run.findings.exchanges).toBe(run.journal.length);
  expect(run.exit, run.proxyOutput).toEqual({ code: 0, signal: null });
  expect(run.proxyOutput).toContain(`\n${run.findings.exchanges} exchanges, 0 server findings, 0 client findings\n`);
  expect(run.proxyOutput).not.toMatch(/^(client|server) [A-Z-]+: /m);
  expectSessionAsDocumented(run);
}

describe('the example web client in Chromium through game-service proxy', { timeout: 60_000 }, () => {
  it('plays as against the mock directly from another origin, and the proxy reports nothing', async ({ annotate }) => {
    const run = await playThroughProxy(false, 'proxy-any-origin.png');
    await annotate('the game screen after a move (through the proxy, no flags)', 'screenshot', { path: run.screenshotPath, contentType: 'image/png' });

    expect(run.blocked).toEqual([]);
    expect(run.first).toEqual(FIRST_SESSION_SCREEN);
    expect(run.firstAnswers).toEqual(COUNTED_FIRST_SESSION);
    expect(run.again).toEqual(AFTER_RELOAD_SCREEN);
    expect(run.againAnswers).toEqual(COUNTED_AFTER_RELOAD);
    expectNothingReported(run);
  });

  it('plays as against the mock directly with the page as --game-origin of both, and the proxy reports nothing', async ({ annotate }) => {
    const run = await playThroughProxy(true, 'proxy-game-origin.png');
    await annotate('the game screen after a move (through the proxy, --game-origin)', 'screenshot', {
      path: run.screenshotPath,
      contentType: 'image/png',
    });

    expect(run.blocked).toEqual([]);
    expect(run.first).toEqual(FIRST_SESSION_SCREEN);
    expect(run.firstAnswers).toEqual(EXEMPT_FIRST_SESSION);
    expect(run.again).toEqual(AFTER_RELOAD_SCREEN);
    expect(run.againAnswers).toEqual(EXEMPT_AFTER_RELOAD);
    expectNothingReported(run);
  });

  it.each(['all', 'public-deployment'])(
    'plays against the mock with --variant %s (the other sides of what the spec leaves open), and the proxy reports nothing',
    async (variant) => {
      const run = await playThroughProxy(false, `proxy-variant-${variant}.png`, variant);
      expect(run.blocked).toEqual([]);
      // The same game; only the wrong code's status is the variant's (a 4xx the spec does not show).
      expect({ ...run.first, wrongCodeError: undefined }).toEqual({ ...FIRST_SESSION_SCREEN, wrongCodeError: undefined });
      expect(run.first.wrongCodeError).toMatch(/^4\d\d: /);
      expectNothingReported(run);
    },
  );
});
