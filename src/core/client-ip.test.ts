import { describe, expect, it } from 'vitest';
import { ActiveVariants } from './active-variants.js';
import { canonicalIp, firstForwardedHop, forwardedClientIp } from './client-ip.js';

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

describe('forwardedClientIp', () => {
  const headers = (values: Record<string, string>) => (name: string) => values[name];
  const both = headers({ 'cf-connecting-ip': '203.0.113.7', 'x-forwarded-for': '198.51.100.1, 10.0.0.1' });

  it('reads the first X-Forwarded-For hop, and CF-Connecting-IP first where that variant plays', () => {
    expect(forwardedClientIp(both, ActiveVariants.from([]).current)).toBe('198.51.100.1');
    expect(forwardedClientIp(both, ActiveVariants.from(['client-ip-cf-connecting-ip']).current)).toBe('203.0.113.7');
  });

  it('falls back to X-Forwarded-For when CF-Connecting-IP is missing or no address', () => {
    const variants = ActiveVariants.from(['client-ip-cf-connecting-ip']).current;
    expect(forwardedClientIp(headers({ 'cf-connecting-ip': 'junk', 'x-forwarded-for': '198.51.100.1' }), variants)).toBe('198.51.100.1');
    expect(forwardedClientIp(headers({ 'x-forwarded-for': '198.51.100.2' }), variants)).toBe('198.51.100.2');
    expect(forwardedClientIp(headers({}), variants)).toBeUndefined();
  });
});
