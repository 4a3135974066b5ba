import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { HarOutput } from '../../conformance/report/har.js';
import { CliError } from '../standalone/cli-error.js';
import { PACKAGE_VERSION } from '../version.js';

/** A file a run writes at its end (--json, --junit, --har, --record): one that cannot be written stops the run before it starts. */
function checkWritableFile(flag: string, path: string): void {
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

/** The parser of a report flag (--json FILE): the file, once it is known to be writable. */
export function writableFile(flag: string): (path: string) => string {
  return (path) => {
    checkWritableFile(flag, path);
    return path;
  };
}

/** --har FILE: the file, once it is known to be writable, and this version as the HAR's creator. */
export function harOutput(path: string): HarOutput {
  checkWritableFile('har', path);
  return { file: path, creatorVersion: PACKAGE_VERSION };
}
