import type { CheckFile } from '../checks/check-files.js';
import type { HarOutput } from '../report/har.js';
import type { ConformanceConfig } from '../target/target-config.js';

// What a run hands its test module (selected-checks.ts) through vitest, and what each check notes for the run.

declare module 'vitest' {
  export interface ProvidedContext {
    conformance: ConformanceConfig;
    /** The check files the run selected, in the plan's order. */
    checkFiles: CheckFile[];
    /** Where the run writes every exchange as HAR, or null. */
    har: HarOutput | null;
  }

  export interface TaskMeta {
    /** Auth requests (register, verify-email) the check sent, its fixtures' included. */
    authRequests?: number;
    /** Addresses the target took a registration or a player for while the check ran, its fixtures' included. */
    registeredEmails?: string[];
  }
}
