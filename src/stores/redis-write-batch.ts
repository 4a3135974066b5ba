import type { ChainableCommander, Redis } from 'iovalkey';

/** Runs a MULTI; EXEC answers each command's error in its results instead of rejecting, so the first one is thrown. */
export async function execOrThrow(batch: ChainableCommander): Promise<void> {
  const results = await batch.exec();
  const failed = results?.find(([error]) => error !== null);
  if (failed !== undefined) throw failed[0];
}

/**
 * The writes of the requests answered in one turn of the event loop, sent as one MULTI: a request adds its
 * commands at once (so they hold its records as they were when it ran), and its answer waits for the EXEC.
 * Another process never reads half of a request's changes, and the commands of many requests go out in one
 * write instead of a MULTI each.
 */
export class RedisWriteBatch {
  readonly #redis: Redis;
  /** Added last to each batch. */
  readonly #finish: (batch: ChainableCommander) => void;
  #batch: ChainableCommander | undefined;
  #filled: Promise<void> | undefined;
  #send: (() => void) | undefined;
  /** Writes sent and not yet answered. */
  readonly #inFlight = new Set<Promise<void>>();

  constructor(redis: Redis, finish: (batch: ChainableCommander) => void) {
    this.#redis = redis;
    this.#finish = finish;
  }

  /** What a request with nothing left to write waits for: another request may have taken its changes into any of these. */
  get pending(): Promise<unknown> | undefined {
    if (this.#inFlight.size === 0) return this.#filled;
    return Promise.all([this.#filled, ...this.#inFlight]);
  }

  /** Adds a request's commands to the next MULTI; resolves once it was executed. */
  add(write: (batch: ChainableCommander) => void): Promise<void> {
    if (this.#batch === undefined) this.#open();
    write(this.#batch!);
    return this.#filled!;
  }

  /** Sends the batch being filled now, then `commit` (a write that needs the server's answers before its MULTI). */
  alone(commit: () => Promise<void>): Promise<void> {
    this.#sendNow();
    return this.#track(commit());
  }

  #open(): void {
    const batch = this.#redis.multi();
    this.#batch = batch;
    this.#filled = new Promise<void>((resolve, reject) => {
      this.#send = () => {
        this.#finish(batch);
        // exec writes the batch at once; the answer comes later.
        this.#track(execOrThrow(batch)).then(resolve, reject);
      };
    });
    // Let the other requests answered in this turn of the event loop add theirs.
    setImmediate(() => this.#batch === batch && this.#sendNow());
  }

  #sendNow(): void {
    const send = this.#send;
    this.#batch = undefined;
    this.#filled = undefined;
    this.#send = undefined;
    send?.();
  }

  async #track(write: Promise<void>): Promise<void> {
    this.#inFlight.add(write);
    try {
      await write;
    } finally {
      this.#inFlight.delete(write);
    }
  }
}
