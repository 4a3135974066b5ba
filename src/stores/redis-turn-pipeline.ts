import type { ChainableCommander, Redis } from 'iovalkey';

/**
 * The hot commands of the requests in flight (their record loads and bucket counts), sent as one pipeline per
 * turn of the event loop: one write to the server for many requests. Unlike the client's auto-pipelining, a
 * pipeline goes out without waiting for the answers to the one before, so the server and this process work
 * at the same time.
 */
export class RedisTurnPipeline {
  readonly #redis: Redis;
  #pipeline: ChainableCommander | undefined;
  #answers: Promise<[error: Error | null, result: unknown][] | null> | undefined;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  /** Adds one command (through `add`) to this turn's pipeline; resolves to its answer. */
  send<T>(add: (pipeline: ChainableCommander) => void): Promise<T> {
    if (this.#pipeline === undefined) {
      const pipeline = this.#redis.pipeline();
      this.#pipeline = pipeline;
      this.#answers = new Promise((resolve) => setImmediate(resolve)).then(() => {
        this.#pipeline = undefined;
        return pipeline.exec();
      });
    }
    const index = this.#pipeline.length;
    add(this.#pipeline);
    return this.#answers!.then((answers) => {
      const [error, result] = answers![index]!;
      if (error !== null) throw error;
      return result as T;
    });
  }
}
