import { describe, expect, it } from 'vitest';
import { nearestNames } from './did-you-mean.js';

const FLAGS = ['base-url', 'game-origin', 'json', 'junit', 'max-duration', 'port', 'verbose', 'version'];

describe('nearestNames', () => {
  it.each([
    ['base-urll', ['base-url']],
    ['prot', ['port']],
    ['gameorigin', ['game-origin']],
    ['jsn', ['json']],
    ['max-dur', ['max-duration']],
  ])('takes %s for a slip of %j', (typed, meant) => {
    expect(nearestNames(typed, FLAGS)).toEqual(meant);
  });

  it('names every flag as near as the nearest', () => {
    expect(nearestNames('jsonit', FLAGS)).toEqual(['json', 'junit']);
  });

  it.each(['bogus', 'foo', 'ver', 'url'])('suggests nothing for %s, which is not near any', (typed) => {
    expect(nearestNames(typed, FLAGS)).toEqual([]);
  });
});
