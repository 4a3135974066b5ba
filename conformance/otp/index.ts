import type { OtpSourceSpec } from '../config.js';
import type { Target } from '../target.js';
import { commandSource } from './command-source.js';
import { controlSource } from './control-source.js';
import { logSource } from './log-source.js';
import type { OtpSource } from './otp-source.js';
import { promptSource } from './prompt-source.js';

export function createOtpSource(spec: OtpSourceSpec, target: Target): OtpSource {
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
  if (text.startsWith('command:') && text.length > 8) return { kind: 'command', command: text.slice(8) };
  throw new Error(`--otp-source ${JSON.stringify(text)} is not one of control, log:FILE, command:CMD, prompt`);
}

export type { OtpSource };
