import { describe, expect, it } from 'vitest';
import { ExpiringMap } from './expiring-map.js';

/** A record with a name, ending at `expiresAt`. */
const until = <N>(name: N, expiresAt: number) => ({ name, expiresAt });
type Named<N> = ReturnType<typeof until<N>>;

describe('ExpiringMap', () => {
  it('hides an entry from its expiry time on', () => {
    const map = new ExpiringMap<string, Named<number>>();
    const a = until(1, 100);
    map.set('a', a, 0);
    expect(map.get('a', 99)).toBe(a);
    expect(map.get('a', 100)).toBeUndefined();
    expect(map.size).toBe(0);
  });

  it('sweeps expired entries as new ones are written, so idle keys do not pile up', () => {
    const map = new ExpiringMap<number, Named<number>>();
    for (let key = 0; key < 1_000; key++) map.set(key, until(key, key + 10), key);
    expect(map.size).toBeLessThanOrEqual(20);
  });

  it('stays within maxEntries by evicting the oldest entry', () => {
    const map = new ExpiringMap<number, Named<number>>(100);
    for (let key = 0; key < 10_000; key++) map.set(key, until(key, Number.POSITIVE_INFINITY), 0);
    expect(map.size).toBe(100);
    expect(map.get(9_999, 0)?.name).toBe(9_999);
    expect(map.get(0, 0)).toBeUndefined();
  });

  it('moves a replaced key to the young end', () => {
    const map = new ExpiringMap<string, Named<number>>(2);
    map.set('a', until(1, 1_000), 0);
    map.set('b', until(2, 1_000), 0);
    map.set('a', until(3, 1_000), 0);
    map.set('c', until(4, 1_000), 0);
    expect(map.get('a', 0)?.name).toBe(3);
    expect(map.get('b', 0)).toBeUndefined();
  });

  it('with keepEndedMs, keeps an ended entry hidden that long, so that a clock set back finds it again', () => {
    const map = new ExpiringMap<number, Named<string>>(Number.POSITIVE_INFINITY, 1_000);
    map.set(0, until('kept', 100), 0);
    map.set(1, until('swept', 100), 0);
    expect(map.get(0, 500)).toBeUndefined();
    // Writes at 1,099 ms sweep nothing that ended less than 1,000 ms before; writes at 1,100 ms do.
    for (let key = 2; key < 10; key++) map.set(key, until('new', 5_000), 1_099);
    expect(map.get(0, 99)?.name).toBe('kept');
    for (let key = 10; key < 20; key++) map.set(key, until('new', 5_000), 1_100);
    expect(map.get(1, 99)).toBeUndefined();
  });

  it('lists and deletes by the values themselves', () => {
    const map = new ExpiringMap<string, Named<number>>();
    map.set('live', until(1, 1_000), 0);
    map.set('ended', until(2, 10), 0);
    expect([...map.entries(500)]).toEqual([['live', until(1, 1_000)]]);
    expect(map.deleteWhere((value) => value.name === 2)).toBe(1);
    expect([...map.values(0)]).toEqual([until(1, 1_000)]);
  });
});
