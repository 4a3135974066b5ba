/** The fuzzer's run bounds when none are given; apart from the fuzzer so that `--help` shows them without loading it. */
export const FUZZ_DEFAULTS = { numRunsWithClock: 100, numRunsRealTime: 5, maxCommands: 50 } as const;
