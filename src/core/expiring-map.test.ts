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
});
