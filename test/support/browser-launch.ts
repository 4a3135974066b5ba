import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium: the browser test drives the system's build rather than downloading one. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Headless Chromium; playwright gives every launch a fresh temporary profile and deletes it on close.
 * A missing browser fails the test with the remedy instead of skipping it, so that CI cannot pass without it.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `${CHROMIUM_PATH} is missing: the browser test needs Debian's chromium. ` +
        'Install it with `sudo apt-get install -y --no-install-recommends chromium` (CI does so in .ci/run).',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
