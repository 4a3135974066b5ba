import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a run's docs workspace is made (docs-workspace.ts): the test files of a run share a process, whose pid names it. */
export const DOCS_WORKSPACE = join(tmpdir(), `game-service-docs-${process.pid}`);

/**
 * The end-to-end project's global setup: no workspace of an earlier run of the same pid is taken for this run's,
 * and the run's is removed once every file that used it is done.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const remove = () => rm(DOCS_WORKSPACE, { recursive: true, force: true });
  await remove();
  return remove;
}
