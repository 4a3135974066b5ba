import { execFile } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './cli.js';

const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

/**
 * `redocly lint --extends recommended` on document files of one folder, as its users run it, in one process: every
 * problem, errors and warnings, by file name.
 */
export async function redoclyLint(files: readonly string[]): Promise<Map<string, LintProblem[]>> {
  const names = files.map((file) => basename(file));
  const run = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', '--extends', 'recommended', '--format', 'json', ...names], {
    cwd: dirname(files[0]!),
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  // One report a file, in the order given, written one after the other.
  const reports = jsonValues(run.stdout) as { problems: LintProblem[] }[];
  if (reports.length !== names.length)
    throw new Error(`redocly lint wrote ${reports.length} reports for ${names.length} files:\n${run.stdout.slice(0, 2_000)}`);
  return new Map(names.map((name, index) => [name, reports[index]!.problems]));
}

/** The JSON values of a text that writes them one after the other (`{…}{…}`). */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      if (depth++ === 0) start = index;
    } else if ((char === '}' || char === ']') && --depth === 0) values.push(JSON.parse(text.slice(start, index + 1)));
  }
  return values;
}

/** A problem as one line: its rule, message and where. */
export const problemLine = (problem: LintProblem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`;
