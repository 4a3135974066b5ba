import type { Page } from 'playwright-core';
import type { SpecHeader } from '../../examples/web-client/src/game-api.js';
import { call } from './http.js';

/** Where the test gets the code the mock delivered: its outbox, read over the control API or in the page. */
export type ReadOtp = (email: string) => Promise<string>;

/** One row of the client's request log: what the page's script could read of an answer. */
export interface LoggedAnswer {
  method: string;
  path: string;
  status: number;
  headers: Record<SpecHeader, string | null>;
}

/** What a person sees on the way to the game screen and after one move. */
export interface FirstSession {
  /** The error line after a wrong code was typed. */
  wrongCodeError: string;
  shipTitle: string;
  sectorBefore: string;
  sectorAfter: string;
  /** A field the server owns on the ship, shown as it answered it. */
  credits: string;
  actionPointsBefore: string;
  actionPointsAfter: string;
}

/** The request log, oldest first. */
export async function loggedAnswers(page: Page): Promise<LoggedAnswer[]> {
  const rows = await page.locator('#request-log li').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['answer'] ?? '{}'));
  return rows.map((row) => JSON.parse(row) as LoggedAnswer).reverse();
}

/** A code that is not `code`, so that the mock must refuse it. */
function wrongCode(code: string): string {
  return code.startsWith('1') ? `2${code.slice(1)}` : `1${code.slice(1)}`;
}

/** Waits for `target`; if the client shows an error instead, fails with it (a blocked request says so there). */
async function reach(page: Page, target: string): Promise<void> {
  await page.locator(`${target}:visible, #error:visible`).first().waitFor({ timeout: 10_000 });
  if (await page.locator('#error').isVisible()) throw new Error(`the client showed "${await page.locator('#error').innerText()}" instead of ${target}`);
}

/** Types the email, then the code from the outbox: as a person reading it from the mock's console. */
async function signIn(page: Page, email: string, readOtp: ReadOtp, { typoFirst }: { typoFirst: boolean }): Promise<string | undefined> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await reach(page, '#verify-screen');
  const code = await readOtp(email);
  let error: string | undefined;
  if (typoFirst) {
    await page.getByLabel('6-digit code').fill(wrongCode(code));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').waitFor();
    error = await page.getByRole('alert').innerText();
  }
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  return error;
}

/** New player: a wrong code, the right one, a ship named Nomad, then a move from the first sector to Vega Reach. */
export async function playFirstSession(page: Page, email: string, readOtp: ReadOtp): Promise<FirstSession> {
  const wrongCodeError = (await signIn(page, email, readOtp, { typoFirst: true })) ?? '';
  await reach(page, '#ship-screen');
  await page.getByLabel('Ship name').fill('Nomad');
  await page.getByLabel('Class').selectOption('merchant');
  await page.getByRole('button', { name: 'Launch' }).click();
  await reach(page, '#game-screen');
  await page.locator('#sectors li').nth(2).waitFor();
  const sectorBefore = await page.locator('#current-sector').innerText();
  const actionPointsBefore = await page.locator('#action-points').innerText();
  await page.getByRole('button', { name: 'Move to Vega Reach' }).click();
  await reach(page, '#sectors li.current:has-text("Vega Reach")');
  await page.locator('#current-sector', { hasText: 'Vega Reach' }).waitFor();
  return {
    wrongCodeError,
    shipTitle: await page.locator('#ship-title').innerText(),
    sectorBefore,
    sectorAfter: await page.locator('#current-sector').innerText(),
    credits: await page.locator('#credits').innerText(),
    actionPointsBefore,
    actionPointsAfter: await page.locator('#action-points').innerText(),
  };
}

/** The page reloaded: the client goes on with its kept session, straight to the game screen where the server kept the ship. */
export async function reloadAndResume(page: Page): Promise<{ shipTitle: string; sector: string; credits: string }> {
  await page.reload();
  await reach(page, '#game-screen');
  await page.locator('#sectors li.current').waitFor();
  return {
    shipTitle: await page.locator('#ship-title').innerText(),
    sector: await page.locator('#current-sector').innerText(),
    credits: await page.locator('#credits').innerText(),
  };
}

/**
 * What would show a blocked request: console errors (Chromium names CORS refusals there) and failed requests.
 * Chromium also logs each 4xx answer as "Failed to load resource"; the refusals the client shows are left out.
 */
export function watchForBlockedRequests(page: Page): string[] {
  const problems: string[] = [];
  const shownRefusal = /^Failed to load resource: the server responded with a status of 4\d\d\b/;
  page.on('console', (message) => {
    if (message.type() === 'error' && !shownRefusal.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
  return problems;
}

/** A JSON answer of a GET that must answer 200 (the mock's control API, the proxy's findings). */
export async function getJson(url: string): Promise<unknown> {
  const answer = await call(url);
  if (answer.status !== 200) throw new Error(`GET ${url} answered ${answer.status}: ${answer.text}`);
  return answer.body;
}

/** The newest code in the mock's outbox, as a test (or a person with curl) reads it on loopback from the mock itself. */
export function outboxReader(mockUrl: string): ReadOtp {
  return async (email) => {
    const { messages } = (await getJson(`${mockUrl}/__mock/outbox?email=${encodeURIComponent(email)}`)) as { messages: Array<{ code: string }> };
    if (messages[0] === undefined) throw new Error(`the mock delivered no code to ${email}`);
    return messages[0].code;
  };
}
