import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logSource } from './log-source.js';

const dir = mkdtempSync(join(tmpdir(), 'log-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Waits longer than any test may take for a code: a source that waits for them is caught by the test's own bound. */
const WAITS = { codeMs: 600_000, afterNamingMs: 300 };

describe('logSource', () => {
  it('reads a code of letters and digits at once, for OTP-LENGTH to judge', async () => {
    const file = join(dir, 'letters.log');
    writeFileSync(file, 'started\n');
    const source = logSource(file, WAITS);
    await source.beforeRegister('ann@example.com');
    appendFileSync(file, 'Your code for ann@example.com is A7K9Q2\n');
    await expect(source.codeFor('ann@example.com')).resolves.toBe('A7K9Q2');
  });

  it('gives up soon after a line names the address without a code it can read, quoting the line', async () => {
    const file = join(dir, 'unreadable.log');
    writeFileSync(file, '');
    const source = logSource(file, WAITS);
    await source.beforeRegister('bob@example.com');
    appendFileSync(file, 'mail queued for bob@example.com (see the mailer)\n');
    await expect(source.codeFor('bob@example.com')).rejects.toThrow(
      `${file} names bob@example.com without a code the suite can read: mail queued for bob@example.com (see the mailer)`,
    );
  });
});
