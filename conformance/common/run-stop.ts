/** The signals that end a run early, and the exit code each ends it with (128 + the signal's number). */
export const STOP_EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignalName = keyof typeof STOP_EXIT_CODES;

/**
 * A run's way to be stopped from outside (Ctrl+C, SIGTERM): the run stops sending, puts the target back as it
 * found it and writes its reports. While the target is changed, `pendingRestore` says what a process ended at
 * once would leave there, so that a second interrupt can say it.
 */
export class RunStop {
  readonly #controller = new AbortController();
  #reason: StopSignalName | undefined;
  #pendingRestore: () => string | undefined = () => undefined;

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The signal that stopped the run, if one did. */
  get reason(): StopSignalName | undefined {
    return this.#reason;
  }

  stop(signal: StopSignalName): void {
    if (this.#reason !== undefined) return;
    this.#reason = signal;
    this.#controller.abort(new RunInterrupted(signal));
  }

  /** What is changed on the target and not yet put back; undefined when nothing is. */
  pendingRestore(): string | undefined {
    return this.#pendingRestore();
  }

  /** Set by the run while it holds the target changed, and cleared once it has put it back. */
  whilePending(describe: () => string | undefined): void {
    this.#pendingRestore = describe;
  }
}

/** Thrown into whatever waits or sends when the run is stopped by a signal. */
export class RunInterrupted extends Error {
  constructor(readonly signal: StopSignalName) {
    super(`the run was interrupted (${signal})`);
    this.name = 'RunInterrupted';
  }
}

/** The reason a report gives a check that an interrupt kept from running, or from finishing. */
export function notRunReason(signal: StopSignalName, started: boolean): string {
  return started ? `interrupted (${signal}) before it finished` : `not run: the run was interrupted (${signal})`;
}
