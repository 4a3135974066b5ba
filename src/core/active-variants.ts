import type { VariantName } from '../spec/variants.js';
import { chooseVariants, type VariantSelection } from './variant-choice.js';

/** The variants played for one request: read once when it arrives, so a switch never lands halfway through it. */
export interface Variants {
  has(name: VariantName): boolean;
}

/** A fixed set of played variants. */
class PlayedVariants implements Variants {
  readonly #names: ReadonlySet<VariantName>;

  constructor(names: readonly VariantName[]) {
    this.#names = new Set(names);
  }

  has(name: VariantName): boolean {
    return this.#names.has(name);
  }
}

/** The variants a service plays now: set at creation, switched through the control API. */
export class ActiveVariants {
  #selection: VariantSelection;
  #current: Variants;

  constructor(selection: VariantSelection) {
    this.#selection = selection;
    this.#current = new PlayedVariants(selection.names);
  }

  static from(entries: readonly string[] | undefined): ActiveVariants {
    return new ActiveVariants(chooseVariants(entries ?? []));
  }

  /** The set played from now on, until the next switch; a request keeps the one it read. */
  get current(): Variants {
    return this.#current;
  }

  /** The names played, and the seed when `random` drew them. */
  get selection(): VariantSelection {
    return this.#selection;
  }

  replace(selection: VariantSelection): void {
    this.#selection = selection;
    this.#current = new PlayedVariants(selection.names);
  }
}
