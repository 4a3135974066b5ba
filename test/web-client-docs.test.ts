/**
 * docs/your-client.md, run as a reader would in a checkout of this repository (built, as `npm test` leaves it).
 * What a reader would change, and only that: the mocks are started on free ports (`--port 0`, reading the URL
 * each prints) and the client on a free one; every 8080 and 5173 of the blocks, expected output included,
 * becomes that port. Between the blocks, the test does in Chromium what the page tells the reader to do there.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser-launch.js';
import { assertBuilt, ROOT } from './support/cli.js';
import { parseMarkdown, type FencedBlock } from './support/docs-markdown.js';
import { expectedOutput, missingOutput, runShell, startShell, stopGroup } from './support/docs-shell.js';
import { freePort } from './support/free-port.js';

const PAGE = 'docs/your-client.md';
const MOCK_CONFIG = 'examples/web-client/mock.json';
/** The address the walk-through has the reader type. */
const READER_EMAIL = 'alice@example.com';

let browser: Browser;
let blocks: FencedBlock[];

beforeAll(async () => {
  assertBuilt();
  blocks = parseMarkdown(await readFile(join(ROOT, PAGE), 'utf8')).blocks;
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

const startsMock = (code: string) => code.startsWith('npx game-service mock');
const startsClient = (code: string) => code.startsWith('npm run example:web-client');

/** The block with the ports of this run in place of the page's. */
function onPorts(text: string, ports: { mock: number; client: number }): string {
  return text.replace(/\b8080\b/g, String(ports.mock)).replace(/\b5173\b/g, String(ports.client));
}

function expectPrinted(code: string, output: string, label: string): void {
  expect(missingOutput(expectedOutput(code), output), `${label}\n${code}\noutput: ${output}`).toBeUndefined();
}

/** What the page says to do once the client is served: open it and type an email. */
async function registerInPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Email').fill(READER_EMAIL);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.locator('#verify-screen').waitFor({ timeout: 10_000 });
}

describe(`${PAGE}, run`, { timeout: 60_000 }, () => {
  it("shows the example's mock.json whole", async () => {
    const shown = blocks.filter((block) => block.lang === 'json');
    expect(shown.map((block) => block.code.trim())).toEqual([(await readFile(join(ROOT, MOCK_CONFIG), 'utf8')).trim()]);
  });

  it('every shell block runs as written: the mock and its CORS flags, its routes, the client served, the code read', async () => {
    const shellBlocks = blocks.filter((block) => block.lang === 'sh').map((block) => block.code.trim());
    expect(shellBlocks.filter(startsClient)).toHaveLength(1);
    expect(shellBlocks.find((code) => code.includes('/__mock/outbox'))).toContain(READER_EMAIL);
    const ports = { mock: 0, client: await freePort() };
    const running: number[] = [];
    const context = await browser.newContext();
    const page = await context.newPage();
    let lastOutput = '';
    try {
      for (const block of shellBlocks) {
        if (startsMock(block)) {
          const [command = ''] = block.split('\n');
          const mock = startShell(ROOT, `${onPorts(command, ports)} --port 0`);
          running.push(mock.child.pid!);
          const [, port = ''] = await mock.waitForOutput(/listening on http:\/\/127\.0\.0\.1:(\d+)\n/);
          await mock.waitForOutput(/Press Ctrl\+C to stop\.\n/);
          // The first mock is the one the page keeps running; the others show a flag, and stop.
          const isFirst = ports.mock === 0;
          if (isFirst) ports.mock = Number(port);
          expectPrinted(onPorts(block, { ...ports, mock: Number(port) }), mock.stdout, 'a mock');
          if (!isFirst) stopGroup(running.pop()!);
        } else if (startsClient(block)) {
          const client = startShell(ROOT, onPorts(block, ports));
          running.push(client.child.pid!);
          const [, url = ''] = await client.waitForOutput(/Web client on (\S+)\n/);
          expectPrinted(onPorts(block, ports), client.stdout, 'the client');
          await registerInPage(page, url);
        } else {
          const result = await runShell(ROOT, onPorts(block, ports));
          stopGroup(result.group);
          expect(result.code, `${block}\nstderr: ${result.stderr}`).toBe(0);
          expectPrinted(onPorts(block, ports), result.stdout, 'a command');
          lastOutput = result.stdout;
        }
      }
      const [, code = ''] = /"code":"(\d{6})"/.exec(lastOutput) ?? [];
      await page.getByLabel('6-digit code').fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.locator('#ship-screen').waitFor({ timeout: 10_000 });
    } finally {
      await context.close();
      running.forEach(stopGroup);
    }
  });
});
