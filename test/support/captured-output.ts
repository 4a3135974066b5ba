import { AsyncLocalStorage } from 'node:async_hooks';
import { format } from 'node:util';

/**
 * What a piece of code run in-process printed, kept apart from what other code of the same worker prints at the
 * same time: the console and process.stdout/stderr are shared, so each write goes to the output of the run whose
 * asynchronous context it comes from (AsyncLocalStorage), and anything outside a run prints as usual.
 */
export interface CapturedOutput {
  stdout: string;
  stderr: string;
}

const runs = new AsyncLocalStorage<CapturedOutput>();
let installed = false;

type Stream = 'stdout' | 'stderr';
const CONSOLE_STREAMS: Readonly<Record<string, Stream>> = { log: 'stdout', info: 'stdout', debug: 'stdout', warn: 'stderr', error: 'stderr' };

function chunkText(chunk: unknown): string {
  return typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
}

/** Routes the console's methods and both streams' writes to the current run's output, once per worker. */
function install(): void {
  if (installed) return;
  installed = true;
  for (const [method, stream] of Object.entries(CONSOLE_STREAMS)) {
    const methods = console as unknown as Record<string, (...args: unknown[]) => void>;
    const original = methods[method]!.bind(console);
    methods[method] = (...args: unknown[]) => {
      const output = runs.getStore();
      if (output === undefined) original(...args);
      else output[stream] += `${format(...args)}\n`;
    };
  }
  for (const stream of ['stdout', 'stderr'] as const) {
    const target = process[stream];
    const original = target.write.bind(target) as (...args: unknown[]) => boolean;
    target.write = ((chunk: unknown, ...rest: unknown[]) => {
      const output = runs.getStore();
      if (output === undefined) return original(chunk, ...rest);
      output[stream] += chunkText(chunk);
      const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    }) as typeof target.write;
  }
}

/** Runs `task` with its output captured in `output` (filled as it prints, so a caller can watch it grow), and whatever it starts. */
export function withCapturedOutput<T>(output: CapturedOutput, task: () => T): T {
  install();
  return runs.run(output, task);
}
