import { accessSync, closeSync, constants, openSync, statSync } from 'node:fs';
import type { OtpSourceSpec } from './otp-source.js';
import { commandSource } from './command-source.js';
import { controlSource, type OutboxReader } from './control-source.js';
import { logSource } from './log-source.js';
import { OtpSourceError, type OtpSource } from './otp-source.js';
import { promptSource, TERMINAL } from './prompt-source.js';

export function createOtpSource(spec: OtpSourceSpec, target: OutboxReader): OtpSource {
  switch (spec.kind) {
    case 'control':
      return controlSource(target);
    case 'log':
      return logSource(spec.file);
    case 'command':
      return commandSource(spec.command);
    case 'prompt':
      return promptSource();
  }
}

/** `control`, `log:FILE`, `command:CMD` or `prompt`, as given to --otp-source. */
export function parseOtpSource(text: string): OtpSourceSpec {
  if (text === 'control') return { kind: 'control' };
  if (text === 'prompt') return { kind: 'prompt' };
  if (text.startsWith('log:') && text.length > 4) return { kind: 'log', file: text.slice(4) };
  if (text.startsWith('command:') && text.trim().length > 8) return { kind: 'command', command: text.slice(8) };
  throw new OtpSourceError(`--otp-source ${JSON.stringify(text)} is not one of control, log:FILE, command:CMD, prompt`);
}

/** Fails at once, before anything starts, where a source cannot work: an unreadable log file, no terminal to prompt on. */
export function checkOtpSource(spec: OtpSourceSpec): void {
  if (spec.kind === 'log') {
    try {
      if (!statSync(spec.file).isFile()) throw new OtpSourceError(`--otp-source log:${spec.file} is not a file`);
      accessSync(spec.file, constants.R_OK);
    } catch (error) {
      if (error instanceof OtpSourceError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw new OtpSourceError(`--otp-source log:${spec.file} cannot be read: ${code === 'ENOENT' ? 'no such file' : (code ?? (error as Error).message)}`);
    }
  }
  if (spec.kind === 'prompt') {
    try {
      closeSync(openSync(TERMINAL, 'r'));
    } catch {
      throw new OtpSourceError('--otp-source prompt needs a terminal to ask for codes, and this run has none; use log:FILE or command:CMD');
    }
  }
}

export { OtpSourceError, type OtpSource };
