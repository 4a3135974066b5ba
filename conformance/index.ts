/** `game-service-harness/conformance`: the suite and the rate-limit fuzzer, as the CLI's check and fuzz commands call them. */
export { runConformance, type ConformanceOptions, type ConformanceResult, type SkippedCheck } from './run/run.js';
export { runFuzz, type FuzzFailure, type FuzzOptions, type FuzzResult } from './fuzz/run-fuzz.js';
export type { TargetOptions } from './target/target-options.js';
export { RunStop, type StopSignalName } from './common/run-stop.js';
