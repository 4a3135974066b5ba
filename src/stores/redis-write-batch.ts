import type { ChainableCommander, Redis } from 'iovalkey';

/**
 * The writes of the requests answered in one turn of the event loop, sent as one MULTI: a request adds its
 * commands at once (so they hold its records as they were when it ran), and its answer waits for the EXEC.
 * Another process never reads half of a request's changes, and the commands of many requests go out in one
 * write instead of a MULTI each.
 */
export class RedisWriteBatch {
  readonly #redis: Redis;
  /** Added last to a batch that holds any command. */
  readonly #finish: (batch: ChainableCommander) => void;
  #batch: ChainableCommander | undefined;
  #sent: Promise<void> | undefined;
  #release: (() => void) | undefined;

  constructor(redis: Redis, finish: (batch: ChainableCommander) => void) {
    this.#redis = redis;
    this.#finish = finish;
  }

  /** The batch being filled, if any: what a request with nothing of its own to write waits for. */
  get pending(): Promise<void> | undefined {
    return this.#sent;
  }

  /** Adds a request's commands to the next MULTI; resolves once it was executed. */
  add(write: (batch: ChainableCommander) => void): Promise<void> {
    if (this.#batch === undefined) {
      const batch = this.#redis.multi();
      this.#batch = batch;
      // Let the other requests answered in this turn of the event loop add theirs.
      const turn = new Promise<void>((resolve) => {
        this.#release = resolve;
        setImmediate(resolve);
      });
      this.#sent = turn.then(() => this.#exec(batch));
    }
    write(this.#batch);
    return this.#sent!;
  }

  /** Sends the batch now, so that a write made after it is executed after it too. */
  flush(): void {
    this.#release?.();
  }

  async #exec(batch: ChainableCommander): Promise<void> {
    if (this.#batch === batch) {
      this.#batch = undefined;
      this.#sent = undefined;
      this.#release = undefined;
    }
    this.#finish(batch);
    const results = await batch.exec();
    const failed = results?.find(([error]) => error !== null);
    if (failed !== undefined) throw failed[0];
  }
}
