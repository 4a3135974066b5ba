import { inject } from 'vitest';
import type { ConformanceConfig } from './config.js';
import { createOtpSource, type OtpSource } from './otp/index.js';
import { Target } from './target.js';

export interface Suite {
  config: ConformanceConfig;
  target: Target;
  /** Null when the run has no way to read codes (no control API and no --otp-source). */
  otp: OtpSource | null;
}

let current: Suite | undefined;

/**
 * The run's target, shared by every check file: files run one after another in one worker without
 * isolation, so that one scheduler sees every request of the run.
 */
export function suite(): Suite {
  if (current === undefined) {
    const config = inject('conformance');
    const target = new Target(config);
    current = { config, target, otp: config.otpSource === null ? null : createOtpSource(config.otpSource, target) };
  }
  return current;
}
