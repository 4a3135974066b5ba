import { CHECK_FILES, isCheckFile, type CheckFile } from '../checks/check-files.js';
import { TargetOptionError } from '../target/target-options.js';

/** What `--only` selects: one check file, or the checks of every file whose title matches. */
export interface CheckSelection {
  files: readonly CheckFile[];
  titles: RegExp | undefined;
}

/** `verify.check.ts`, `verify.check`, or a path ending so: a check file, not a pattern. */
const CHECK_FILE_NAME = /^(?:.*\/)?([\w-]+)\.check(?:\.[jt]s)?$/;

/**
 * `--only`: a check file (`verify.check.ts`), or a regular expression the check titles are matched against (a
 * rule id such as RL-429, or any part of a title). Throws TargetOptionError for a file that is none of the suite's,
 * or a pattern that is no regular expression.
 */
export function selectChecks(only: string | undefined): CheckSelection {
  if (only === undefined) return { files: CHECK_FILES, titles: undefined };
  const file = CHECK_FILE_NAME.exec(only)?.[1];
  if (file !== undefined) {
    if (!isCheckFile(file))
      throw new TargetOptionError(
        `--only ${JSON.stringify(only)} names no check file of the suite: ${CHECK_FILES.map((name) => `${name}.check.ts`).join(', ')}`,
      );
    return { files: [file], titles: undefined };
  }
  try {
    return { files: CHECK_FILES, titles: new RegExp(only) };
  } catch (error) {
    throw new TargetOptionError(`--only ${JSON.stringify(only)} is not a regular expression: ${(error as Error).message}`);
  }
}

/** `--only`, judged before anything starts; throws TargetOptionError. */
export function checkOnlyPattern(only: string): void {
  selectChecks(only);
}
