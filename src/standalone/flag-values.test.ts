import { describe, expect, it } from 'vitest';
import { parseCount, parseGameOrigin, parseList, parseOriginList, parsePort, parseSwitch } from './flag-values.js';

describe('flag values', () => {
  it('takes ports from 0 to 65535, typed or from a file', () => {
    expect(parsePort('0')).toBe(0);
    expect(parsePort(' 8080 ')).toBe(8080);
    expect(parsePort(65_535)).toBe(65_535);
    for (const bad of ['', ' ', 'abc', '80.5', '-1', '65536', 70_000, null, true]) {
      expect(() => parsePort(bad)).toThrow(/is not a port/);
    }
  });

  it('normalizes an origin and refuses anything with a path, query or credentials', () => {
    expect(parseGameOrigin('http://localhost:5173/')).toBe('http://localhost:5173');
    expect(parseGameOrigin('HTTPS://Game.Example:443')).toBe('https://game.example');
    for (const bad of ['game.test', 'ftp://game.test', 'http://game.test/play', 'http://game.test?x=1', 'http://u:p@game.test']) {
      expect(() => parseGameOrigin(bad)).toThrow(/is not an origin/);
    }
  });

  it('merges repeated and comma-separated origins into one list', () => {
    expect(parseOriginList(['http://a.test,http://b.test', ' http://c.test '])).toEqual(['http://a.test', 'http://b.test', 'http://c.test']);
    expect(parseOriginList('')).toEqual([]);
  });

  it('reads on/off words and refuses others', () => {
    for (const on of [true, 'true', '1', 'YES', 'on']) expect(parseSwitch(on, '--trust-proxy')).toBe(true);
    for (const off of [false, 'false', '0', 'no', 'Off']) expect(parseSwitch(off, '--trust-proxy')).toBe(false);
    expect(() => parseSwitch('maybe', '--trust-proxy')).toThrow('--trust-proxy "maybe" is not on or off; expected true or false');
  });

  it('takes counts from 0 up, and lists repeated or comma-separated', () => {
    const count = parseCount('max-wrong-otp-attempts');
    expect(count('0')).toBe(0);
    expect(count(7)).toBe(7);
    for (const bad of ['', '-1', '2.5', 'x']) expect(() => count(bad)).toThrow(`--max-wrong-otp-attempts ${JSON.stringify(bad)} is not a count`);
    expect(parseList(['a,b', ' c ', ''])).toEqual(['a', 'b', 'c']);
  });

  it('refuses a count below its minimum, saying the minimum', () => {
    const runs = parseCount('num-runs', 1);
    expect(runs('1')).toBe(1);
    expect(() => runs('0')).toThrow('--num-runs "0" must be at least 1');
    expect(() => runs('x')).toThrow('--num-runs "x" is not a count; expected an integer from 1 up');
  });
});
