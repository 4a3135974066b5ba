/** What `{{counter}}` numbers: the ships, and the players, a mock makes. */
export type SequenceKind = 'ship' | 'player';

/** Where the numbers come from: this process, or a server many processes share. */
export interface Sequences {
  /** The next number of `kind`: 1 for the first, unique among those this source gave. */
  next(kind: SequenceKind): number;
}

/** Numbers counted in this process, going on from the highest a kept state holds. */
export class LocalSequences implements Sequences {
  readonly #last: Record<SequenceKind, number> = { ship: 0, player: 0 };

  next(kind: SequenceKind): number {
    return ++this.#last[kind];
  }

  /** The next numbers follow `highest`. */
  continueFrom(kind: SequenceKind, highest: number): void {
    this.#last[kind] = Math.max(this.#last[kind], highest);
  }
}
