import type { Redis } from 'iovalkey';
import type { SequenceKind, Sequences } from '../core/sequences.js';

/** Numbers a process takes from the shared counter at once: one round trip per this many ships or players. */
const BLOCK = 64;

const KINDS: readonly SequenceKind[] = ['ship', 'player'];

/**
 * `{{counter}}` on a Redis many processes share: each process takes blocks of numbers from one counter per kind
 * (INCRBY), so that no two processes give the same number, and a restarted one goes on after the highest taken.
 * A block is taken before a request that could need it; a request that makes more than a block (a large world)
 * goes on past it, numbers that another process may take too.
 */
export class RedisSequences implements Sequences {
  readonly #redis: Redis;
  readonly #key: (kind: SequenceKind) => string;
  readonly #blocks: Record<SequenceKind, { next: number; end: number }> = { ship: { next: 1, end: 0 }, player: { next: 1, end: 0 } };

  constructor(redis: Redis, key: (kind: SequenceKind) => string) {
    this.#redis = redis;
    this.#key = key;
  }

  next(kind: SequenceKind): number {
    return this.#blocks[kind].next++;
  }

  /** Whether a kind's block is spent, so that `reserve` must run before the next request. */
  get spent(): boolean {
    return KINDS.some((kind) => this.#blocks[kind].next > this.#blocks[kind].end);
  }

  /** Takes a new block for each kind whose block is spent. */
  async reserve(): Promise<void> {
    for (const kind of KINDS) {
      const block = this.#blocks[kind];
      if (block.next <= block.end) continue;
      const end = await this.#redis.incrby(this.#key(kind), BLOCK);
      block.next = Math.max(block.next, end - BLOCK + 1);
      block.end = end;
    }
  }
}
