/** The target flags' defaults; apart from target-options so that `--help` shows them without loading the suite. */
export const TARGET_DEFAULTS = {
  emailTemplate: 'conformance+{id}@example.com',
  maxWaitSeconds: 120,
  requestTimeoutSeconds: 30,
  numRuns: 25,
  /** What the mock accepts. */
  shipPayload: '{"name":"Conformance"}',
} as const;
