import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError } from '../standalone/cli-error.js';

/** A report a run writes at its end (--json, --junit, --har): one that cannot be written stops the run before it starts. */
export function checkWritableFile(flag: string, path: string): void {
  const refuse = (why: string) => new CliError('GS_USAGE', `--${flag} ${JSON.stringify(path)} cannot be written: ${why}`);
  const existing = statSync(path, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw refuse('it is a directory');
  const directory = dirname(resolve(path));
  if (existing === undefined && statSync(directory, { throwIfNoEntry: false })?.isDirectory() !== true) throw refuse(`${dirname(path)} is no directory`);
  try {
    accessSync(existing === undefined ? directory : path, constants.W_OK);
  } catch (error) {
    throw refuse((error as NodeJS.ErrnoException).code === 'EACCES' ? 'no permission' : (error as Error).message);
  }
}
