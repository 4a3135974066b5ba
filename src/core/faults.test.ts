import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { faultRuleFromJson, faultRuleFromText } from './fault-rules.js';
import { FaultInjector, faultRuleText } from './faults.js';
import { pathPattern } from './path-pattern.js';

describe('pathPattern', () => {
  it.each([
    ['*', '/api/player', true],
    ['/api/*', '/api/auth/register', true],
    ['/api/*', '/health', false],
    ['/api/player', '/api/player/ship', false],
    ['/__mock/players/:email', '/__mock/players/a@example.com', true],
    ['/__mock/players/:email', '/__mock/players/a/b', false],
    ['/a.b', '/axb', false],
    ['/api/*/ship', '/api/player/ship', true],
    ['/api/:id*', '/api/x', true],
    ['/api/:id', '/api/', false],
  ])('%s on %s: %s', (pattern, path, matches) => {
    expect(pathPattern(pattern)(path)).toBe(matches);
  });

  it('costs at most the pattern length times the path length, however many wildcards (no backtracking)', () => {
    const started = performance.now();
    expect(pathPattern(`${'*a'.repeat(40)}b`)('a'.repeat(5_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('fault rules', () => {
  it.each([
    ['GET /api/player 503@0.2', { method: 'GET', path: '/api/player', probability: 0.2, kind: 'status', status: 503 }],
    ['/api/* latency:100-500', { method: '*', path: '/api/*', probability: 1, kind: 'latency', minMs: 100, maxMs: 500 }],
    ['post /api/auth/register reset@10%', { method: 'POST', path: '/api/auth/register', probability: 0.1, kind: 'reset' }],
    ['* * 429', { method: '*', path: '*', probability: 1, kind: 'rate-limit' }],
    ['GET /health truncate', { method: 'GET', path: '/health', probability: 1, kind: 'truncate' }],
  ])('%s', (text, rule) => {
    expect(faultRuleFromText(text)).toEqual(rule);
  });

  it.each(['GET /api/player 418', '/api/player latency:5-1', 'GET /api/player 503@2', 'one', 'GET api/player 503'])('refuses %j with a 400', (text) => {
    expect(() => faultRuleFromText(text)).toThrow(ApiError);
  });

  it.each(['GET /api/player 503@0.2', '* /api/* latency:100-500', '* * latency:5', 'POST /api/auth/register reset@0.1', '* * 429', 'GET /health truncate'])(
    'writes %j back in the text form it reads',
    (text) => expect(faultRuleText(faultRuleFromText(text))).toBe(text),
  );

  it('takes JSON with a fixed latency or a range, and refuses a status fault without its status', () => {
    expect(faultRuleFromJson({ kind: 'latency', ms: 50 })).toMatchObject({ minMs: 50, maxMs: 50, method: '*', path: '*' });
    expect(() => faultRuleFromJson({ kind: 'status' })).toThrow(/names its status/);
  });
});

describe('FaultInjector', () => {
  const rules = [faultRuleFromText('GET /api/player 503@0.5'), faultRuleFromText('/api/* latency:10-20@0.5')];

  it('draws the same faults for the same seed and requests, and others for another seed', () => {
    const run = (seed: number) => {
      const injector = new FaultInjector(rules, seed);
      return Array.from({ length: 50 }, () => injector.draw('GET', '/api/player').labels.join('+'));
    };
    expect(run(1)).toEqual(run(1));
    expect(run(1)).not.toEqual(run(2));
  });

  it('fires about as often as its probability, and never on a request it does not match', () => {
    const injector = new FaultInjector(rules, 9);
    const draws = Array.from({ length: 2_000 }, () => injector.draw('GET', '/api/player'));
    const failed = draws.filter((met) => met.status === 503).length;
    expect(failed).toBeGreaterThan(850);
    expect(failed).toBeLessThan(1_150);
    for (const met of draws) if (met.latencyMs > 0) expect(met.latencyMs).toBeGreaterThanOrEqual(10);
    expect(injector.draw('POST', '/health').labels).toEqual([]);
  });
});
