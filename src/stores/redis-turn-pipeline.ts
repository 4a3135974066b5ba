import type { ChainableCommander, Redis } from 'iovalkey';

/** A script defined on the client (`defineCommand`) that takes many calls at once: its keys, then its arguments. */
export interface SharedScript {
  command: string;
  /** Arguments every call shares, before the calls' own. */
  shared: readonly (string | number)[];
}

/** The calls of a shared script gathered in the turn being filled. */
interface Gathered {
  keys: string[];
  args: (string | number)[];
  calls: number;
  /** Its place in the pipeline, once added. */
  index: number;
}

/**
 * The hot commands of the requests in flight (their record loads and bucket counts), sent as one pipeline per
 * turn of the event loop: one write to the server for many requests. Unlike the client's auto-pipelining, a
 * pipeline goes out without waiting for the answers to the one before, so the server and this process work
 * at the same time. Calls of a shared script go out as one command, added last: each command costs the client
 * and the server more than the work of a call.
 */
export class RedisTurnPipeline {
  readonly #redis: Redis;
  #pipeline: ChainableCommander | undefined;
  #answers: Promise<[error: Error | null, result: unknown][] | null> | undefined;
  #gathered = new Map<SharedScript, Gathered>();

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  /** Adds one command (through `add`) to this turn's pipeline; resolves to its answer. */
  send<T>(add: (pipeline: ChainableCommander) => void): Promise<T> {
    const pipeline = this.#filling();
    const index = pipeline.length;
    add(pipeline);
    return this.#answer<T>(() => index);
  }

  /** Adds one call (its keys and arguments) to this turn's command of `script`; resolves to its element of the answer. */
  call<T>(script: SharedScript, keys: readonly string[], args: readonly (string | number)[]): Promise<T> {
    this.#filling();
    let gathered = this.#gathered.get(script);
    if (gathered === undefined) {
      gathered = { keys: [], args: [], calls: 0, index: -1 };
      this.#gathered.set(script, gathered);
    }
    const call = gathered.calls++;
    gathered.keys.push(...keys);
    gathered.args.push(...args);
    const found = gathered;
    return this.#answer<unknown[]>(() => found.index).then((answers) => answers[call] as T);
  }

  #filling(): ChainableCommander {
    if (this.#pipeline !== undefined) return this.#pipeline;
    const pipeline = this.#redis.pipeline();
    this.#pipeline = pipeline;
    this.#answers = new Promise((resolve) => setImmediate(resolve)).then(() => {
      this.#pipeline = undefined;
      for (const [script, gathered] of this.#gathered) {
        gathered.index = pipeline.length;
        const add = (pipeline as unknown as Record<string, (...keysAndArgs: (string | number)[]) => unknown>)[script.command]!;
        add.call(pipeline, gathered.keys.length, ...gathered.keys, ...script.shared, ...gathered.args);
      }
      this.#gathered = new Map();
      return pipeline.exec();
    });
    return pipeline;
  }

  #answer<T>(index: () => number): Promise<T> {
    return this.#answers!.then((answers) => {
      const [error, result] = answers![index()]!;
      if (error !== null) throw error;
      return result as T;
    });
  }
}
