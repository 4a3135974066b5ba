import { describe, expect, it } from 'vitest';
import { ExpiringMap } from './expiring-map.js';

describe('ExpiringMap', () => {
  it('hides an entry from its expiry time on', () => {
    const map = new ExpiringMap<string, number>();
    map.set('a', 1, 100, 0);
    expect(map.get('a', 99)).toBe(1);
    expect(map.get('a', 100)).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it('sweeps expired entries as new ones are written, so idle keys do not pile up', () => {
    const map = new ExpiringMap<number, number>();
    for (let key = 0; key < 1_000; key++) map.set(key, key, key + 10, key);
    expect(map.size).toBeLessThanOrEqual(20);
  });

  it('stays within maxEntries by evicting the oldest entry', () => {
    const map = new ExpiringMap<number, number>(100);
    for (let key = 0; key < 10_000; key++) map.set(key, key, Number.POSITIVE_INFINITY, 0);
    expect(map.size).toBe(100);
    expect(map.get(9_999, 0)).toBe(9_999);
    expect(map.get(0, 0)).toBeUndefined();
  });

  it('moves a replaced key to the young end', () => {
    const map = new ExpiringMap<string, number>(2);
    map.set('a', 1, 1_000, 0);
    map.set('b', 2, 1_000, 0);
    map.set('a', 3, 1_000, 0);
    map.set('c', 4, 1_000, 0);
    expect(map.get('a', 0)).toBe(3);
    expect(map.get('b', 0)).toBeUndefined();
  });

  it('with keepEndedMs, keeps an ended entry hidden that long, so that a clock set back finds it again', () => {
    const map = new ExpiringMap<number, string>(Number.POSITIVE_INFINITY, 1_000);
    map.set(0, 'kept', 100, 0);
    map.set(1, 'swept', 100, 0);
    expect(map.get(0, 500)).toBeUndefined();
    // Writes at 1,099 ms sweep nothing that ended less than 1,000 ms before; writes at 1,100 ms do.
    for (let key = 2; key < 10; key++) map.set(key, 'new', 5_000, 1_099);
    expect(map.get(0, 99)).toBe('kept');
    for (let key = 10; key < 20; key++) map.set(key, 'new', 5_000, 1_100);
    expect(map.get(1, 99)).toBeUndefined();
  });
});
