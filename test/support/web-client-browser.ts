import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser-launch.js';
import { assertBuilt } from './cli.js';

/** Overwritten on every run; printed so that a person can look at the game screen each run reached. */
export const SCREENSHOTS = join(tmpdir(), 'game-service-web-client-screenshots');

/** One Chromium for a test file's plays of the example client, and the folder their screenshots go to. */
export function useWebClientBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    assertBuilt();
    browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
    console.log(`web client screenshots: ${SCREENSHOTS}`);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}
