import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { createTextLogger } from '../src/standalone/logger.js';
import { startMock, type RunningMock } from '../src/standalone/mock.js';
import { launchChromium } from './support/browser-launch.js';
import { call } from './support/http.js';

/** Overwritten on every run; each is also attached to its test. */
const SCREENSHOTS = join(tmpdir(), 'game-service-dashboard-screenshots');
const START = '2030-01-01T09:00:00.000Z';

interface Dashboard {
  mock: RunningMock;
  page: Page;
  /** A control call from the test, beside the page's. */
  control(path: string, json?: unknown, method?: 'GET' | 'POST' | 'DELETE'): Promise<Record<string, unknown>>;
  /** A request to the game API, as a client would send it. */
  api(path: string, json?: unknown): Promise<number>;
}

let browser: Browser;
/** What each test opened, and the errors its page met. */
const open: Array<{ mock: RunningMock; context: BrowserContext; errors: string[] }> = [];

beforeAll(async () => {
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);

afterEach(async () => {
  const closing = open.splice(0);
  // The page first: a mock closed under a page still open makes its next refresh an error on the page.
  await Promise.all(
    closing.map(async ({ mock, context }) => {
      await context.close();
      await mock.close();
    }),
  );
  expect(
    closing.flatMap(({ errors }) => errors),
    'errors on the page',
  ).toEqual([]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** The standalone mock, frozen at START, and its dashboard open in Chromium with the journal live. */
async function openDashboard(viewport = { width: 1280, height: 900 }): Promise<Dashboard> {
  const sink = { write: () => {} };
  const mock = await startMock({
    port: 0,
    host: '127.0.0.1',
    gameOrigins: [],
    trustProxy: false,
    freezeClock: true,
    logger: createTextLogger({ stdout: sink, stderr: sink }),
  });
  const context = await browser.newContext({ viewport });
  const errors: string[] = [];
  open.push({ mock, context, errors });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: mock.url });
  const control: Dashboard['control'] = async (path, json, method) => {
    const answer = await call(`${mock.url}/__mock${path}`, { ...(method === undefined ? {} : { method }), ...(json === undefined ? {} : { json }) });
    if (answer.status !== 200) throw new Error(`control ${path} answered ${answer.status}: ${answer.text}`);
    return answer.body as Record<string, unknown>;
  };
  await control('/clock', { set: START, frozen: true });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`${mock.url}/__mock/ui`);
  await page.locator('#journal-state', { hasText: 'live' }).waitFor();
  await page.locator('#clock-now', { hasText: '2030-01-01 09:00:00.000 UTC' }).waitFor();
  const api = async (path: string, json?: unknown) => (await call(`${mock.url}${path}`, json === undefined ? {} : { json })).status;
  return { mock, page, control, api };
}

async function attachScreenshot(context: TestContext, page: Page, name: string, message: string): Promise<void> {
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await context.annotate(message, 'screenshot', { path, contentType: 'image/png' });
}

const row = (page: Page, table: string, selector: string) => page.locator(`#${table} tr${selector}`);

/** A conformance run's kind of address, 40 characters long. */
const longAddress = (n: number) => `${`conformance+verify-${n}-`.padEnd(28, 'x')}@example.com`;

/** Where the panel's columns are, and whether its content is wider than the panel. */
async function panelLayout(page: Page, panel: string) {
  return page.locator(`#${panel}`).evaluate((section) => {
    const box = section.getBoundingClientRect();
    const cells = [...section.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => {
        const cell = td.getBoundingClientRect();
        return { text: td.textContent ?? '', inside: cell.left >= box.left && cell.right <= box.right };
      }),
    );
    return { scrollWidth: section.scrollWidth, clientWidth: section.clientWidth, width: box.width, cells };
  });
}

// Each step waits for a condition on the page (Playwright's waitFor, up to 30 s each), never for a fixed time: on
// a loaded machine a test takes longer, so its own bound is only there to end one that hangs.
describe('the dashboard in a real browser (Chromium)', { timeout: 180_000 }, () => {
  it('shows a code the moment a player registers through the API, copies it, and lists the request live', async (context) => {
    const { page, control, api } = await openDashboard();
    expect(await api('/api/auth/register', { email: 'alice@example.com' })).toBe(200);
    const { messages } = (await control('/outbox?email=alice@example.com')) as { messages: Array<{ code: string }> };
    const code = messages[0]!.code;

    const message = row(page, 'outbox', '[data-email="alice@example.com"]');
    await message.locator('.code span', { hasText: code }).waitFor();
    await row(page, 'journal', '').filter({ hasText: 'POST /api/auth/register' }).waitFor();
    await message.locator('.code button.copy').click();
    await message.locator('.code button.copy', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    expect(await message.locator('td').nth(2).textContent()).toBe('pending');
    // The outbox shown again, with another code in it: the row that did not change still says Copied.
    expect(await api('/api/auth/register', { email: 'dave@example.com' })).toBe(200);
    await row(page, 'outbox', '[data-email="dave@example.com"]').waitFor();
    expect(await message.locator('.code button.copy').textContent()).toBe('Copied');
    await attachScreenshot(context, page, 'outbox', 'the code in the outbox, copied; the request in the journal');
  });

  it('counts a bucket down on the virtual clock, and shows it reset when the clock button moves a minute on', async (context) => {
    const { page, api } = await openDashboard();
    for (const email of ['bob@example.com', 'carol@example.com']) expect(await api('/api/auth/register', { email })).toBe(200);
    const auth = row(page, 'buckets', '[data-category="auth"][data-key="127.0.0.1"]');
    await auth.filter({ hasText: '2/5' }).filter({ hasText: '1:00' }).waitFor();
    await attachScreenshot(context, page, 'bucket-spent', 'the auth bucket spent twice, its window ending in a minute of virtual time');

    await page.getByRole('button', { name: '+1 min' }).click();
    await page.locator('#clock-now', { hasText: '2030-01-01 09:01:00.000 UTC' }).waitFor();
    await page.locator('#buckets td.empty', { hasText: 'No live buckets' }).waitFor();
    expect(await api('/api/auth/register', { email: 'dave@example.com' })).toBe(200);
    await auth.filter({ hasText: '1/5' }).waitFor();
    await attachScreenshot(context, page, 'bucket-reset', 'after +1 min: the window ended, and a new one counts from 1');
  });

  it('applies a scenario and manages fault rules with buttons, each a call of the control API', async (context) => {
    const { page, control, api } = await openDashboard();
    const rateLimited = page.locator('form[data-scenario="rate-limited"]');
    await rateLimited.getByRole('textbox', { name: 'rate-limited category' }).fill('auth');
    await rateLimited.getByRole('textbox', { name: 'rate-limited key' }).fill('127.0.0.1');
    await rateLimited.getByRole('button', { name: 'rate-limited' }).click();
    await row(page, 'buckets', '[data-category="auth"]').filter({ hasText: '5/5' }).waitFor();
    expect(await control('/buckets?category=auth&key=127.0.0.1')).toMatchObject({ buckets: [{ remaining: 0 }] });
    expect(await api('/api/auth/register', { email: 'erin@example.com' })).toBe(429);

    await page.locator('form[data-scenario="outage"]').getByRole('button', { name: 'outage' }).click();
    await page.locator('#faults li', { hasText: '* * 503' }).waitFor();
    expect(await api('/health')).toBe(503);
    await row(page, 'journal', '').filter({ hasText: 'GET /health' }).filter({ hasText: '503' }).waitFor();

    await page.getByRole('textbox', { name: 'fault rule' }).fill('GET /api/player 502@0.5');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.locator('#faults li', { hasText: 'GET /api/player 502@0.5' }).waitFor();
    expect(((await control('/faults')) as { faults: Array<{ text: string }> }).faults.map((rule) => rule.text)).toEqual(['* * 503', 'GET /api/player 502@0.5']);
    await attachScreenshot(context, page, 'faults', 'the auth bucket filled by a scenario; an outage and a fault rule in force');

    await page.getByRole('button', { name: 'Remove all' }).click();
    await page.locator('#faults li.empty').waitFor();
    expect(await control('/faults')).toMatchObject({ faults: [] });
    expect(await api('/health')).toBe(200);
  });

  it('follows in its Routes panel a route added, replaced and removed while the mock runs', async () => {
    const { page, control } = await openDashboard();
    const shipRead = row(page, 'routes', '[data-route="getShip"]');
    await shipRead.filter({ hasText: 'mock' }).waitFor();
    await control('/routes', { method: 'POST', path: '/api/news', category: 'public', response: { items: [] } });
    await row(page, 'routes', '[data-route="POST /api/news"]').filter({ hasText: 'public' }).waitFor();
    await control('/routes', { method: 'GET', path: '/api/player/ship', body: { recorded: true } });
    await shipRead.waitFor({ state: 'detached' });
    await row(page, 'routes', '[data-route="GET /api/player/ship"]').filter({ hasText: 'config' }).waitFor();
    await control(`/routes/${encodeURIComponent('POST /api/news')}`, undefined, 'DELETE');
    await control(`/routes/${encodeURIComponent('GET /api/player/ship')}`, undefined, 'DELETE');
    await row(page, 'routes', '[data-route="POST /api/news"]').waitFor({ state: 'detached' });
    await shipRead.filter({ hasText: 'mock' }).waitFor();
  });

  it('shows the answers a recorded route generalised: in its Routes row, and on the journal entry', async () => {
    const { page, control, api } = await openDashboard();
    const sectorAnswer = { sector: { id: '{{params.sectorId | number}}', name: 'Sol' } };
    await control('/routes', {
      method: 'GET',
      path: '/api/sectors/:sectorId',
      category: 'public',
      answers: [{ when: { params: { sectorId: '1' } }, response: sectorAnswer }],
    });
    expect(await api('/api/sectors/7')).toBe(200);
    await row(page, 'routes', '[data-route="GET /api/sectors/:sectorId"]').filter({ hasText: 'path :sectorId=7 ← path :sectorId=1 ×1' }).waitFor();
    await page.locator('#journal tr', { hasText: 'GET /api/sectors/7' }).filter({ hasText: 'generalised from path :sectorId=1' }).waitFor();
    await control(`/routes/${encodeURIComponent('GET /api/sectors/:sectorId')}`, undefined, 'DELETE');
  });

  it('creates a player with a token, and freezes, sets and runs the clock', async (context) => {
    const { page, control, api } = await openDashboard();
    await page.getByRole('textbox', { name: 'new player email' }).fill('rookie@example.com');
    await page.getByRole('checkbox', { name: 'verified' }).uncheck();
    await page.getByRole('button', { name: 'Create' }).click();
    const token = (await page.locator('#player-token code').textContent())!;
    await row(page, 'players', '[data-email="rookie@example.com"]').filter({ hasText: 'no' }).waitFor();
    expect(await control('/players?email=rookie@example.com')).toMatchObject({ players: [{ emailVerified: false }] });
    const ship = await call(`${page.url().replace('/__mock/ui', '')}/api/player/ship`, {
      headers: { authorization: `Bearer ${token}` },
      json: { name: 'Nomad' },
    });
    expect(ship.status).toBe(403);

    await page.getByRole('textbox', { name: 'time (ISO 8601)' }).fill('2031-06-01T12:00:00Z');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await page.locator('#clock-now', { hasText: '2031-06-01 12:00:00.000 UTC' }).waitFor();
    await page.getByRole('button', { name: 'Unfreeze' }).click();
    await page.locator('#clock-state', { hasText: 'running' }).waitFor();
    expect(await control('/clock')).toMatchObject({ frozen: false });
    await page.getByRole('button', { name: '+7 days' }).click();
    await page.locator('#clock-now', { hasText: '2031-06-08' }).waitFor();
    expect(await api('/health')).toBe(200);
    await attachScreenshot(context, page, 'players-clock', 'a player created unverified, with its token; the clock set, running, a week on');
  });

  it('keeps 40-character addresses inside the outbox and players panels at 1400×1000: cut, whole on hover, copied whole', async (context) => {
    const { page, control, api } = await openDashboard({ width: 1400, height: 1000 });
    const addresses = [1, 2, 3].map(longAddress);
    expect(addresses.map((address) => address.length)).toEqual([40, 40, 40]);
    for (const email of addresses) expect(await api('/api/auth/register', { email })).toBe(200);
    for (const email of addresses) await control('/players', { email, ship: { name: 'The Longest Ship Name Allowed 32' } });
    for (const table of ['outbox', 'players']) await row(page, table, `[data-email="${addresses[2]}"]`).waitFor();

    for (const [panel, columns] of [
      ['outbox-panel', 4],
      ['players-panel', 5],
    ] as const) {
      const layout = await panelLayout(page, panel);
      expect(layout.width, panel).toBeLessThan(460);
      expect(layout.scrollWidth, `${panel}: content wider than the panel`).toBeLessThanOrEqual(layout.clientWidth);
      expect(layout.cells.length, panel).toBeGreaterThanOrEqual(3);
      for (const cells of layout.cells) {
        expect(cells, panel).toHaveLength(columns);
        expect(
          cells.filter((cell) => !cell.inside),
          `${panel}: cells outside the panel`,
        ).toEqual([]);
      }
    }
    const [, code, state, expires] = (await panelLayout(page, 'outbox-panel')).cells[0]!.map((cell) => cell.text);
    expect(code).toMatch(/^\d{6}Copy$/);
    expect(state).toBe('pending');
    expect(expires).toBe('09:15:00');

    for (const table of ['outbox', 'players']) {
      const address = row(page, table, `[data-email="${addresses[0]}"]`).locator('td.long .truncate');
      await address.hover();
      expect(await address.getAttribute('title')).toBe(addresses[0]);
      // The whole address is the cell's text, cut only on screen.
      expect(await address.textContent()).toBe(addresses[0]);
      expect(await address.evaluate((span) => span.scrollWidth > span.clientWidth)).toBe(true);
    }
    const copy = row(page, 'players', `[data-email="${addresses[1]}"]`).locator('td.long button.copy');
    await copy.click();
    await copy.filter({ hasText: '✓' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(addresses[1]);
    await attachScreenshot(context, page, 'long-addresses', '40-character addresses at 1400×1000: cut in their column, every other column in its panel');
  });

  it('says which times are virtual and which real: the clock, the outbox and the journal', async (context) => {
    const { page, api } = await openDashboard({ width: 1400, height: 1000 });
    expect(await api('/health')).toBe(200);
    const entry = row(page, 'journal', '').filter({ hasText: 'GET /health' });
    await entry.waitFor();
    // The mock's clock is frozen in 2030: the journal's time is the virtual one, never the real one.
    expect(await entry.locator('td').first().textContent()).toBe('2030-01-01 09:00:00');
    expect(await page.locator('#journal-panel th').first().textContent()).toBe('Virtual time');
    expect(await page.locator('#journal-legend').textContent()).toMatch(/on its virtual clock \(UTC\), not the real time/);
    expect(await page.locator('#outbox-panel th').last().textContent()).toBe('Expires (virtual)');
    expect(await page.locator('#clock-panel h2').textContent()).toBe('Clock virtual time');
    // The real time, ticking: it shows this machine's clock (to the second) once the page's next tick has run.
    const shownRealTime = async () => Date.parse((await page.locator('#real-now').textContent())!.replace(' ', 'T').replace(' UTC', 'Z'));
    await expect.poll(async () => Math.abs((await shownRealTime()) - Date.now()), { timeout: 30_000 }).toBeLessThan(2_000);
    await attachScreenshot(context, page, 'times', 'the clock in virtual time beside the real time; the journal and the outbox labelled virtual');
  });
});
