import { describe, expect, it } from 'vitest';
import { PUBLIC_DEPLOYMENT_VARIANTS, SPEC_CHOICES } from '../spec/variants.js';
import { chooseVariants, VariantError } from './variant-choice.js';

describe('chooseVariants', () => {
  it('plays nothing but the defaults when no variant is named', () => {
    expect(chooseVariants([])).toEqual({ names: [] });
  });

  it('all: the first non-default side of every choice', () => {
    const { names } = chooseVariants(['all']);
    expect(names).toHaveLength(SPEC_CHOICES.length);
    expect(names).toContain('reset-epoch-milliseconds');
    expect(names).not.toContain('reset-seconds-remaining');
  });

  it('public-deployment: the preset, overridden choice by choice by a later name', () => {
    expect(chooseVariants(['public-deployment']).names).toEqual(expect.arrayContaining([...PUBLIC_DEPLOYMENT_VARIANTS]));
    const overridden = chooseVariants(['public-deployment', 'wrong-code-422']).names;
    expect(overridden).toContain('wrong-code-422');
    expect(overridden).not.toContain('wrong-code-401');
  });

  it('random:SEED draws the same sides for the same seed, and random draws a seed it reports', () => {
    const first = chooseVariants(['random:42']);
    expect(first.seed).toBe(42);
    expect(chooseVariants(['random:42'])).toEqual(first);
    const drawn = chooseVariants(['random'], () => 7);
    expect(drawn).toEqual({ ...chooseVariants(['random:7']), seed: 7 });
    const sides = new Set(Array.from({ length: 40 }, (_, seed) => chooseVariants([`random:${seed}`]).names.join(',')));
    expect(sides.size, 'different seeds draw different sides').toBeGreaterThan(30);
  });

  it.each([
    [['reset-epoch-milliseconds', 'reset-seconds-remaining'], /two sides of one choice \(reset-unit\)/],
    [['reset-in-hours'], /unknown variant "reset-in-hours"; one of all, random, random:SEED, public-deployment, reset-epoch-milliseconds/],
    [['random:x'], /the seed is an integer/],
  ])('refuses %j', (entries, message) => {
    expect(() => chooseVariants(entries)).toThrow(VariantError);
    expect(() => chooseVariants(entries)).toThrow(message);
  });
});
