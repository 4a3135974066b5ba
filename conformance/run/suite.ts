import type { ConformanceConfig } from './config.js';
import { FixtureStore } from '../fixtures/fixture-store.js';
import { createOtpSource, type OtpSource } from '../otp/index.js';
import { Target } from '../target/target.js';

/** One run as its checks see it: made once per run by the run's test module and handed to every check file. */
export interface Suite {
  config: ConformanceConfig;
  /** The run's one target, so that one scheduler sees every request of the run. */
  target: Target;
  /** Null when the run has no way to read codes (no control API and no --otp-source). */
  otp: OtpSource | null;
  /** What the checks of this run share (see fixture.ts). */
  fixtures: FixtureStore;
}

/** What registering and signing in need: the run's configuration, target and OTP source (the fuzzer's session has them too). */
export type SignInContext = Pick<Suite, 'config' | 'target' | 'otp'>;

export function createSuite(config: ConformanceConfig): Suite {
  const target = new Target(config);
  return { config, target, otp: config.otpSource === null ? null : createOtpSource(config.otpSource, target), fixtures: new FixtureStore() };
}
