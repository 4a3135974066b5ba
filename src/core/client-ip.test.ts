import { describe, expect, it } from 'vitest';
import { ActiveVariants } from './active-variants.js';
import { forwardedClientIp } from './client-ip.js';

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
