import type { VariantName } from '../spec/variants.js';
import { chooseVariants, type VariantSelection } from './variant-choice.js';

/** The variants a service plays now: set at creation, switched through the control API. */
export class ActiveVariants {
  #names: ReadonlySet<VariantName>;
  #selection: VariantSelection;

  constructor(selection: VariantSelection) {
    this.#selection = selection;
    this.#names = new Set(selection.names);
  }

  static from(entries: readonly string[] | undefined): ActiveVariants {
    return new ActiveVariants(chooseVariants(entries ?? []));
  }

  has(name: VariantName): boolean {
    return this.#names.has(name);
  }

  /** The names played, and the seed when `random` drew them. */
  get selection(): VariantSelection {
    return this.#selection;
  }

  replace(selection: VariantSelection): void {
    this.#selection = selection;
    this.#names = new Set(selection.names);
  }
}
