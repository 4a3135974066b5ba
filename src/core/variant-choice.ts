import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { PUBLIC_DEPLOYMENT_VARIANTS, SPEC_CHOICES, type VariantName } from '../spec/variants.js';
import { MAX_FAULT_SEED, randomSeed } from './faults.js';

/** A variant selection that names no variant, or two sides of one choice: a usage error, never a request error. */
export class VariantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VariantError';
  }
}

/** The variants a mock plays, and the seed that drew them when `random` did. */
export interface VariantSelection {
  readonly names: readonly VariantName[];
  readonly seed?: number;
}

const CHOICE_OF = new Map<string, string>(SPEC_CHOICES.flatMap((choice) => choice.variants.map((variant) => [variant.name, choice.choice] as const)));
export const VARIANT_NAMES: readonly VariantName[] = SPEC_CHOICES.flatMap((choice) => choice.variants.map((variant) => variant.name));
export const VARIANT_KEYWORDS = ['all', 'random', 'random:SEED', 'public-deployment'] as const;

const isVariantName = (name: string): name is VariantName => CHOICE_OF.has(name);

/** The non-default side of every choice; where a choice has more than two sides, the one named first. */
function allVariants(): VariantName[] {
  return SPEC_CHOICES.map((choice) => choice.variants[0].name);
}

/** A side of every choice, the default among them, drawn from `seed`. */
function randomVariants(seed: number): VariantName[] {
  const rng = xoroshiro128plus(seed);
  return SPEC_CHOICES.flatMap((choice) => {
    const side = uniformInt(rng, 0, choice.variants.length);
    return side === 0 ? [] : [choice.variants[side - 1]!.name];
  });
}

function parseSeed(text: string): number {
  if (!/^\d{1,10}$/.test(text) || Number(text) > MAX_FAULT_SEED) throw new VariantError(`random:${text}: the seed is an integer from 0 to ${MAX_FAULT_SEED}`);
  return Number(text);
}

/**
 * `NAME`, `all`, `random[:SEED]` and `public-deployment`, in any number, resolved into one side per choice:
 * a later entry overrides an earlier one on the same choice, but two names given outright may not disagree.
 */
export function chooseVariants(entries: readonly string[], drawSeed: () => number = randomSeed): VariantSelection {
  const byChoice = new Map<string, VariantName>();
  const named = new Map<string, VariantName>();
  let seed: number | undefined;
  for (const entry of entries.map((text) => text.trim()).filter((text) => text !== '')) {
    let names: VariantName[];
    if (entry === 'all') names = allVariants();
    else if (entry === 'public-deployment') names = [...PUBLIC_DEPLOYMENT_VARIANTS];
    else if (entry === 'random' || entry.startsWith('random:')) {
      seed = entry === 'random' ? drawSeed() : parseSeed(entry.slice('random:'.length));
      names = randomVariants(seed);
      for (const choice of SPEC_CHOICES) byChoice.delete(choice.choice);
    } else if (isVariantName(entry)) {
      const choice = CHOICE_OF.get(entry)!;
      const other = named.get(choice);
      if (other !== undefined && other !== entry) throw new VariantError(`${other} and ${entry} are two sides of one choice (${choice}); name one`);
      named.set(choice, entry);
      names = [entry];
    } else {
      throw new VariantError(`unknown variant ${JSON.stringify(entry)}; one of ${[...VARIANT_KEYWORDS, ...VARIANT_NAMES].join(', ')}`);
    }
    for (const name of names) byChoice.set(CHOICE_OF.get(name)!, name);
  }
  const names = SPEC_CHOICES.flatMap((choice) => {
    const name = byChoice.get(choice.choice);
    return name === undefined ? [] : [name];
  });
  return seed === undefined ? { names } : { names, seed };
}
