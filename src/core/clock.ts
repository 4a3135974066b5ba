/** The only source of time in the core: every expiry and window compares against `now()`. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock the control API can move: every expiry, window and refill follows it. */
export interface ControllableClock extends Clock {
  readonly frozen: boolean;
  advance(ms: number): void;
  set(ms: number): void;
  freeze(): void;
  unfreeze(): void;
  /** Back to the source's time, frozen or running as it was created. */
  reset(): void;
  /** Where it stands, as a store engine keeps and shares it. */
  readonly state: ClockState;
  restore(state: ClockState): void;
}

/** A running clock's offset from its source, or the instant a frozen one shows. */
export interface ClockState {
  offsetMs: number;
  frozenAt: number | null;
}

export interface VirtualClockOptions {
  /** Where running time comes from; the system clock by default. */
  source?: Clock;
  startMs?: number;
  frozen?: boolean;
}

/** Running time shifted by an offset, or a frozen instant that moves only when told to. */
export class VirtualClock implements ControllableClock {
  readonly #source: Clock;
  #offsetMs: number;
  #frozenAt: number | undefined;
  readonly #startsFrozen: boolean;

  constructor(options: VirtualClockOptions = {}) {
    this.#source = options.source ?? systemClock;
    this.#startsFrozen = options.frozen === true;
    const sourceNow = this.#source.now();
    this.#offsetMs = (options.startMs ?? sourceNow) - sourceNow;
    this.#frozenAt = options.frozen === true ? sourceNow + this.#offsetMs : undefined;
  }

  get frozen(): boolean {
    return this.#frozenAt !== undefined;
  }

  now(): number {
    return this.#frozenAt ?? this.#source.now() + this.#offsetMs;
  }

  advance(ms: number): void {
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    else this.#offsetMs += ms;
  }

  set(ms: number): void {
    if (this.#frozenAt !== undefined) this.#frozenAt = ms;
    else this.#offsetMs = ms - this.#source.now();
  }

  freeze(): void {
    this.#frozenAt ??= this.now();
  }

  unfreeze(): void {
    if (this.#frozenAt === undefined) return;
    this.#offsetMs = this.#frozenAt - this.#source.now();
    this.#frozenAt = undefined;
  }

  reset(): void {
    this.#offsetMs = 0;
    this.#frozenAt = this.#startsFrozen ? this.#source.now() : undefined;
  }

  get state(): ClockState {
    return { offsetMs: this.#offsetMs, frozenAt: this.#frozenAt ?? null };
  }

  restore(state: ClockState): void {
    this.#offsetMs = state.offsetMs;
    this.#frozenAt = state.frozenAt ?? undefined;
  }
}

/** A frozen virtual clock: time moves only by `advance` and `set`. For tests. */
export class ManualClock extends VirtualClock {
  constructor(startMs: number) {
    super({ startMs, frozen: true });
  }
}

export function isControllable(clock: Clock): clock is ControllableClock {
  return 'advance' in clock && 'freeze' in clock;
}
