import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACTION_POINTS } from '../src/core/options.js';
import { RATE_LIMIT_WINDOW_MS, RATE_LIMITS, TOKEN_LIFETIME_MS } from '../src/spec/limits.js';
import { MINE_ROUTE, SCENARIO_EMAIL, SCENARIO_START_MS, type ScenarioRun } from './browser-pages/scenario-config.js';
import { launchChromium } from './support/browser-launch.js';
import { startPageServer } from './support/browser-page-server.js';
import { startStandaloneForPage } from './support/browser-standalone.js';

const AUTH_LIMIT = String(RATE_LIMITS.auth.limit);
const WINDOW_END_SECONDS = String((SCENARIO_START_MS + RATE_LIMIT_WINDOW_MS) / 1000);
const REFILL_SECONDS = String(DEFAULT_ACTION_POINTS.refillIntervalMs / 1000);
const NONE = { 'X-RateLimit-Limit': null, 'X-RateLimit-Remaining': null, 'X-RateLimit-Reset': null };
const NO_POINTS = { 'X-ActionPoints-Remaining': null, 'X-ActionPoints-NextRefill': null };

/**
 * What a game origin's script reads: auth calls count by IP for every caller (Remaining falls), reads and
 * gameplay are exempt from buckets (no X-RateLimit-*), and gameplay reports the points left.
 */
const EXPECTED_STEPS = [
  {
    step: 'register',
    status: 200,
    headers: { 'X-RateLimit-Limit': AUTH_LIMIT, 'X-RateLimit-Remaining': '4', 'X-RateLimit-Reset': WINDOW_END_SECONDS, ...NO_POINTS },
  },
  {
    step: 'verify',
    status: 200,
    headers: { 'X-RateLimit-Limit': AUTH_LIMIT, 'X-RateLimit-Remaining': '3', 'X-RateLimit-Reset': WINDOW_END_SECONDS, ...NO_POINTS },
  },
  { step: 'read player', status: 200, headers: { ...NONE, ...NO_POINTS } },
  { step: 'create ship', status: 200, headers: { ...NONE, 'X-ActionPoints-Remaining': '1', 'X-ActionPoints-NextRefill': null } },
  { step: 'mine', status: 200, headers: { ...NONE, 'X-ActionPoints-Remaining': '0', 'X-ActionPoints-NextRefill': REFILL_SECONDS } },
  { step: 'mine again', status: 403, headers: { ...NONE, 'X-ActionPoints-Remaining': '0', 'X-ActionPoints-NextRefill': REFILL_SECONDS } },
];

/** Port 1 of loopback: a request the worker fails to intercept fails instead of reaching a real mock. */
const UNSERVED_API_ORIGIN = 'http://127.0.0.1:1';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The run with random tokens and ids replaced, so that two mocks' runs compare equal. */
function normalised(run: ScenarioRun): unknown {
  return JSON.parse(JSON.stringify(run.steps), (_key, value: unknown) => (typeof value === 'string' && UUID.test(value) ? '<uuid>' : value));
}

/** Overwritten on every run; the path is printed so that a person can look at what the pages showed. */
const SCREENSHOTS = join(tmpdir(), 'game-service-browser-screenshots');

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
  console.log(`browser test screenshots: ${SCREENSHOTS}`);
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

/** Runs the page's scenario against `apiUrl`, then screenshots its results table. */
async function runPage(page: Page, url: string, apiUrl: string, screenshot: string): Promise<ScenarioRun> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await page.waitForFunction(() => typeof window.runScenario === 'function');
  const run = await page.evaluate((input) => window.runScenario(input), { apiUrl });
  await page.screenshot({ path: join(SCREENSHOTS, screenshot), fullPage: true });
  expect(errors).toEqual([]);
  return run;
}

/** The standalone mock behind a second loopback origin, driven by a page whose codes the test reads. */
async function runStandalonePage(): Promise<{ run: ScenarioRun; preflightPaths: string[] }> {
  const pages = await startPageServer('standalone-page.ts');
  const mock = await startStandaloneForPage(pages.origin);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.exposeFunction('readOtpFromTest', (email: string) => mock.latestOtp(email));
    const run = await runPage(page, pages.url, mock.url, 'standalone.png');
    expect(run.origin).toBe(pages.origin);
    const preflights = (await mock.journal()).filter((entry) => entry.method === 'OPTIONS' && entry.status === 204 && entry.origin === pages.origin);
    return { run, preflightPaths: [...new Set(preflights.map((entry) => entry.path))].sort() };
  } finally {
    await context.close();
    await Promise.all([mock.close(), pages.close()]);
  }
}

/** The same page with the msw worker answering in the browser; nothing listens on the API origin it calls. */
async function runWorkerPage(): Promise<ScenarioRun> {
  const pages = await startPageServer('worker-page.ts');
  const context = await browser.newContext();
  try {
    return await runPage(await context.newPage(), pages.url, UNSERVED_API_ORIGIN, 'msw-worker.png');
  } finally {
    await context.close();
    await pages.close();
  }
}

describe('a game client in a real browser (Chromium)', () => {
  it('calls the standalone mock across origins: preflights are answered and the spec headers are readable', async ({ annotate }) => {
    const { run, preflightPaths } = await runStandalonePage();
    await annotate('what the standalone page showed', 'screenshot', { path: join(SCREENSHOTS, 'standalone.png'), contentType: 'image/png' });

    expect(run.steps.map(({ step, status, headers }) => ({ step, status, headers }))).toEqual(EXPECTED_STEPS);
    expect(preflightPaths).toEqual(['/api/auth/register', '/api/auth/verify-email', '/api/player', '/api/player/ship', MINE_ROUTE.path].sort());
    const [register, verify, player] = run.steps;
    expect(register?.body).toEqual({ success: true, message: expect.any(String) });
    expect(verify?.body).toEqual({
      success: true,
      authToken: expect.stringMatching(UUID),
      expiresAt: new Date(SCENARIO_START_MS + TOKEN_LIFETIME_MS).toISOString(),
    });
    expect(player?.body).toMatchObject({ success: true, player: { email: SCENARIO_EMAIL, emailVerified: true, ship: null } });
  });

  it('gets the same answers from the msw worker in the page as from the standalone mock', async ({ annotate }) => {
    const [standalone, worker] = await Promise.all([runStandalonePage(), runWorkerPage()]);
    await annotate('what the msw worker page showed', 'screenshot', { path: join(SCREENSHOTS, 'msw-worker.png'), contentType: 'image/png' });

    expect(normalised(worker)).toEqual(normalised(standalone.run));
    expect(worker.steps.map(({ step, status, headers }) => ({ step, status, headers }))).toEqual(EXPECTED_STEPS);
  });
});
