import { ConsumerProcess, type Finished } from './package-consumer.js';

/**
 * Shell blocks of the docs, run as a reader would paste them. A whole-line comment in a block shows what the
 * command before it prints, with `…` standing for anything (ids, times, counts); the block's output must hold
 * those lines in order.
 */
export function expectedOutput(block: string): string[] {
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('# '))
    .map((line) => line.slice(2));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The first expected line that `output` does not hold after the ones before it, or undefined when all are there. */
export function missingOutput(expected: readonly string[], output: string): string | undefined {
  let from = 0;
  for (const line of expected) {
    const pattern = new RegExp(line.split('…').map(escapeRegExp).join('[\\s\\S]*?'), 'g');
    pattern.lastIndex = from;
    const match = pattern.exec(output);
    if (match === null) return line;
    from = match.index + match[0].length;
  }
  return undefined;
}

export interface ShellRun extends Finished {
  /** The process group the script ran in: what it left running in the background is still in it. */
  group: number;
}

/**
 * Runs `script` in `cwd` with bash as GitHub's runner does (`bash --noprofile --norc -eo pipefail`), in a process
 * group of its own, with the project's Node 24 first on PATH.
 */
export function startShell(cwd: string, script: string): ConsumerProcess {
  return new ConsumerProcess(cwd, 'bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script]);
}

export async function runShell(cwd: string, script: string): Promise<ShellRun> {
  const shell = startShell(cwd, script);
  return { ...(await shell.finished), group: shell.child.pid! };
}

/** SIGTERM to a process group and everything left in it; a group already gone is fine. */
export function stopGroup(group: number): void {
  try {
    process.kill(-group, 'SIGTERM');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
