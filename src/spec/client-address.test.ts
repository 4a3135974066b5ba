import { describe, expect, it } from 'vitest';
import { canonicalIp, firstForwardedHop } from './client-address.js';

describe('canonicalIp', () => {
  it('accepts IPv4 and IPv6 addresses in one spelling each', () => {
    expect(canonicalIp('203.0.113.7')).toBe('203.0.113.7');
    expect(canonicalIp('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(canonicalIp('0:0::1')).toBe('::1');
    expect(canonicalIp('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(canonicalIp('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      'unknown',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '01.2.3.4',
      '0x7f.0.0.1',
      '1.2.3.4:80',
      '[::1]',
      'fe80::1%eth0',
      ':::',
      'a'.repeat(14_000),
    ]) {
      expect(canonicalIp(text), text).toBeUndefined();
    }
  });
});

describe('firstForwardedHop', () => {
  it('takes the first hop when it is an address', () => {
    expect(firstForwardedHop(' 198.51.100.9 , 10.0.0.1')).toBe('198.51.100.9');
    expect(firstForwardedHop('2001:db8::7')).toBe('2001:db8::7');
  });

  it('ignores a first hop that is not an address, however long', () => {
    expect(firstForwardedHop(undefined)).toBeUndefined();
    expect(firstForwardedHop(`${'x'.repeat(14_000)}, 10.0.0.1`)).toBeUndefined();
    expect(firstForwardedHop('unknown, 10.0.0.1')).toBeUndefined();
    expect(firstForwardedHop(`${'1'.repeat(50)}`)).toBeUndefined();
  });
});
