import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serveWebClient, type WebClientServer } from '../examples/web-client/serve.js';
import type { WorkerMockConfig } from './support/web-client-worker-page.js';
import { SCREENSHOTS, useWebClientBrowser } from './support/web-client-browser.js';
import { ROOT, startMock, useCli } from './support/cli.js';
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

const MOCK_CONFIG = 'examples/web-client/mock.json';
const EMAIL = 'pilot@example.com';
/** Port 1 of loopback: a request the worker fails to intercept fails instead of reaching a real mock. */
const UNSERVED_API_ORIGIN = 'http://127.0.0.1:1';

const cli = useCli();
const browser = useWebClientBrowser();

/** The journal's preflights from `origin`, by path, and the route each other request from it was answered by. */
async function journalFrom(mockUrl: string, origin: string) {
  const { entries } = (await getJson(`${mockUrl}/__mock/journal?limit=100`)) as {
    entries: Array<{ method: string; path: string; status: number; origin: string | null; route: string | null }>;
  };
  const fromPage = entries.filter((entry) => entry.origin === origin);
  const preflights = fromPage.filter((entry) => entry.method === 'OPTIONS');
  return {
    preflightStatuses: [...new Set(preflights.map((entry) => entry.status))],
    preflightPaths: [...new Set(preflights.map((entry) => entry.path))].sort(),
    routes: [...new Set(fromPage.filter((entry) => entry.method !== 'OPTIONS').map((entry) => entry.route))].sort(),
  };
}

async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SCREENSHOTS, name);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** The client on its own origin, the CLI's mock on another, started with the example's config file. */
async function playAgainstStandalone(mockArgs: (client: WebClientServer) => string[], screenshotName: string) {
  const client = await serveWebClient({ port: 0 });
  const context = await browser().newContext();
  try {
    const mock = await startMock(cli, ['--port', '0', '--config', MOCK_CONFIG, ...mockArgs(client)]);
    const page = await context.newPage();
    const blocked = watchForBlockedRequests(page);
    const readOtp = outboxReader(mock.url);
    await page.goto(`${client.origin}/?api=${mock.url}`);
    expect(await page.locator('#api-base-url').innerText()).toBe(mock.url);

    const first = await playFirstSession(page, EMAIL, readOtp);
    const firstAnswers = await loggedAnswers(page);
    const screenshotPath = await screenshot(page, screenshotName);
    const again = await reloadAndResume(page);
    return {
      client,
      first,
      firstAnswers,
      again,
      againAnswers: await loggedAnswers(page),
      blocked,
      screenshotPath,
      journal: await journalFrom(mock.url, client.origin),
    };
  } finally {
    await context.close();
    await client.close();
  }
}

/** Every path the page called needs a preflight (JSON bodies, bearer tokens): the mock answered each 204. */
const PREFLIGHTED_PATHS = [
  '/api/auth/register',
  '/api/auth/verify-email',
  '/api/galaxy/1/sector',
  '/api/galaxy/1/sectors',
  '/api/player/ship',
  '/api/player/ship/move',
];
const ROUTES_USED = [
  'GET /api/galaxy/:galaxyId/sector',
  'GET /api/galaxy/:galaxyId/sectors',
  'POST /api/player/ship/move',
  'createShip',
  'getShip',
  'register',
  'verifyEmail',
];

describe('the example web client in Chromium', { timeout: 60_000 }, () => {
  it('plays against the standalone mock from another origin with no flags: no request blocked, every bucket counted', async ({ annotate }) => {
    const run = await playAgainstStandalone(() => [], 'standalone-any-origin.png');
    await annotate('the game screen after a move (standalone mock, no flags)', 'screenshot', { path: run.screenshotPath, contentType: 'image/png' });

    expect(run.blocked).toEqual([]);
    expect(run.first).toEqual(FIRST_SESSION_SCREEN);
    expect(readable(run.firstAnswers)).toEqual(COUNTED_FIRST_SESSION);
    expect(run.again).toEqual(AFTER_RELOAD_SCREEN);
    expect(readable(run.againAnswers)).toEqual(COUNTED_AFTER_RELOAD);
    expect(run.journal).toEqual({ preflightStatuses: [204], preflightPaths: PREFLIGHTED_PATHS, routes: expect.arrayContaining(ROUTES_USED) });
  });

  it('plays against the standalone mock with --game-origin: the same game, its reads and moves exempt from the buckets', async ({ annotate }) => {
    const run = await playAgainstStandalone((client) => ['--game-origin', client.origin], 'standalone-game-origin.png');
    await annotate('the game screen after a move (standalone mock, --game-origin)', 'screenshot', { path: run.screenshotPath, contentType: 'image/png' });

    expect(run.blocked).toEqual([]);
    expect(run.first).toEqual(FIRST_SESSION_SCREEN);
    expect(readable(run.firstAnswers)).toEqual(EXEMPT_FIRST_SESSION);
    expect(run.again).toEqual(AFTER_RELOAD_SCREEN);
    expect(readable(run.againAnswers)).toEqual(EXEMPT_AFTER_RELOAD);
    expect(run.journal).toEqual({ preflightStatuses: [204], preflightPaths: PREFLIGHTED_PATHS, routes: expect.arrayContaining(ROUTES_USED) });
  });

  it('plays against the msw worker in the page, given mock.json: the same answers as the standalone mock, the position kept over a reload', async ({
    annotate,
  }) => {
    const config = JSON.parse(await readFile(join(ROOT, MOCK_CONFIG), 'utf8')) as WorkerMockConfig;
    const client = await serveWebClient({
      port: 0,
      entryPoint: join(ROOT, 'test/support/web-client-worker-page.ts'),
      files: { '/mockServiceWorker.js': join(ROOT, 'node_modules/msw/lib/mockServiceWorker.js') },
    });
    const context = await browser().newContext();
    try {
      const page = await context.newPage();
      const blocked = watchForBlockedRequests(page);
      const start = async () => {
        await page.waitForFunction(() => typeof window.startWithMockWorker === 'function');
        await page.evaluate((given) => window.startWithMockWorker(given), config);
      };
      await page.goto(`${client.origin}/?api=${UNSERVED_API_ORIGIN}`);
      await start();

      const first = await playFirstSession(page, EMAIL, (email) => page.evaluate((address) => window.latestOtp(address), email));
      const path = await screenshot(page, 'msw-worker.png');
      await annotate('the game screen after a move (msw worker in the page)', 'screenshot', { path, contentType: 'image/png' });
      expect(blocked).toEqual([]);
      expect(first).toEqual(FIRST_SESSION_SCREEN);
      expect(readable(await loggedAnswers(page))).toEqual(COUNTED_FIRST_SESSION);

      await page.reload();
      await start();
      await page.locator('#game-screen:visible').waitFor();
      await page.locator('#current-sector', { hasText: 'Vega Reach' }).waitFor();
      expect(await page.locator('#credits').innerText()).toBe('1000');
      expect(blocked).toEqual([]);
    } finally {
      await context.close();
      await client.close();
    }
  });
});
