/** The only source of time in the core: every expiry and window compares against `now()`. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to: for tests, and for a mock whose time is controlled. */
export class ManualClock implements Clock {
  #nowMs: number;

  constructor(startMs: number) {
    this.#nowMs = startMs;
  }

  now(): number {
    return this.#nowMs;
  }

  advance(ms: number): void {
    this.#nowMs += ms;
  }

  set(ms: number): void {
    this.#nowMs = ms;
  }
}
