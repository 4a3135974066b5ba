import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** A fresh temporary directory per test, removed after it. */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => (dir ??= mkdtempSync(join(tmpdir(), `${prefix}-`)));
}
