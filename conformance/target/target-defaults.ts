/** The target options' defaults, in seconds where a time; apart from target-options so that `--help` shows them without loading the suite. */
export const TARGET_DEFAULTS = {
  emailTemplate: 'conformance+{id}@example.com',
  maxWait: 120,
  requestTimeout: 30,
  numRuns: 25,
  /** What the mock accepts. */
  shipPayload: '{"name":"Conformance"}',
} as const;
