import { accessSync, constants } from 'node:fs';
import { CliError } from './cli-error.js';

/** A file a flag names for reading (--config, --world): checked as the flag is read, so that a variable is named. */
export function readableFile(flag: string): (path: string) => string {
  return (path) => {
    try {
      accessSync(path, constants.R_OK);
    } catch (error) {
      throw new CliError('GS_USAGE', `cannot read --${flag} ${path}: ${(error as Error).message}`);
    }
    return path;
  };
}
