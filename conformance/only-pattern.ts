import { TargetOptionError } from './target-options.js';

/** `--only`: a regular expression the check titles are matched against; throws TargetOptionError for one that is none. */
export function checkOnlyPattern(only: string): void {
  try {
    new RegExp(only);
  } catch (error) {
    throw new TargetOptionError(`--only ${JSON.stringify(only)} is not a regular expression: ${(error as Error).message}`);
  }
}
