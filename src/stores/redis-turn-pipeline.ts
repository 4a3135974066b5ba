import type { ChainableCommander, Redis } from 'iovalkey';

/** A script defined on the client (`defineCommand`) that takes many calls at once: its keys, then its arguments. */
export interface SharedScript {
  command: string;
  /** Keys every call shares, before the calls' own: none where undefined. */
  sharedKeys?: readonly string[];
  /** Arguments every call shares, before the calls' own. */
  shared: readonly (string | number)[];
}

/** The calls of a shared script gathered in the turn being filled, which a call adds its keys and arguments to. */
export interface ScriptCalls {
  readonly keys: string[];
  readonly args: (string | number)[];
  /** How many calls were added before in this turn: the place of the next. */
  readonly calls: number;
  /** What the calls before left for the next in this turn: undefined for the first. */
  memo: unknown;
}

/** The calls of a shared script gathered in the turn being filled. */
interface Gathered extends ScriptCalls {
  calls: number;
  /** Its place in the pipeline, once added. */
  index: number;
  /** The script's whole answer, which all of the turn's calls share. */
  answer: Promise<unknown>;
}

const NO_KEYS: readonly string[] = [];

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

  /**
   * Adds one call to this turn's command of `script` through `add`, which finds how many calls came before it: resolves
   * to the script's whole answer, shared by all calls of the turn (no promise of a call's own).
   */
  join(script: SharedScript, add: (calls: ScriptCalls) => void): Promise<unknown> {
    this.#filling();
    let gathered = this.#gathered.get(script);
    if (gathered === undefined) {
      const made: Gathered = { keys: [], args: [], calls: 0, memo: undefined, index: -1, answer: Promise.resolve() };
      made.answer = this.#answer<unknown>(() => made.index);
      this.#gathered.set(script, made);
      gathered = made;
    }
    add(gathered);
    gathered.calls++;
    return gathered.answer;
  }

  #filling(): ChainableCommander {
    if (this.#pipeline !== undefined) return this.#pipeline;
    const pipeline = this.#redis.pipeline();
    this.#pipeline = pipeline;
    this.#answers = new Promise((resolve) => setImmediate(resolve)).then(() => {
      this.#pipeline = undefined;
      for (const [script, gathered] of this.#gathered) {
        gathered.index = pipeline.length;
        const add = (pipeline as unknown as Record<string, (...keysAndArgs: (number | readonly (string | number)[])[]) => unknown>)[script.command]!;
        const sharedKeys = script.sharedKeys ?? NO_KEYS;
        // Arrays: the client flattens them, where spreading would copy every argument once more.
        add.call(pipeline, sharedKeys.length + gathered.keys.length, sharedKeys, gathered.keys, script.shared, gathered.args);
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
