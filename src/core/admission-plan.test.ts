import { describe, expect, it } from 'vitest';
import { CONTROL_PLAN, planAdmission, requestLoad } from './admission-plan.js';
import { ManualClock } from './clock.js';
import { createFaultInjector } from './fault-injection.js';
import { activeVariants, resolveOptions } from './options.js';
import type { RequestContext } from './request-context.js';
import type { Route } from './route-definition.js';
import { apiRoutes } from './route-table.js';
import { Router } from './router.js';
import { Store } from './store.js';

const NOW = Date.parse('2026-11-21T10:00:30.000Z');
const IP = '203.0.113.9';
const GAME_ORIGIN = 'http://game.test';
const config = resolveOptions({ clock: new ManualClock(NOW), gameOrigins: [GAME_ORIGIN] });
const router = new Router<Route>(apiRoutes([]).map((route) => ({ method: route.spec.method, path: route.spec.path, target: route })));

interface Sent {
  method?: string;
  path: string;
  origin?: string;
  variants?: string[];
  fault?: string;
}

/** The context of a request as the service makes it when it arrives; no record is read to plan it. */
function contextOf({ method = 'GET', path, origin, variants = [], fault }: Sent): RequestContext {
  const faults = fault === undefined ? undefined : createFaultInjector({ faults: [fault], faultSeed: 1 }).draw(method, path);
  return {
    request: { method, path, headers: origin === undefined ? {} : { origin }, ip: IP },
    now: NOW,
    config,
    variants: activeVariants(variants).current,
    store: new Store(config.bounds, undefined),
    caller: { ip: IP, origin, isGameOrigin: origin === GAME_ORIGIN, corsOrigin: origin },
    isControl: false,
    faults,
  };
}

const plan = (sent: Sent) => planAdmission(contextOf(sent), router);

describe('planAdmission: what a request needs, from its context alone', () => {
  it('a read needs a live token and counts by its player; refused 401, by the client address as a public read', () => {
    const planned = plan({ path: '/api/player' });
    expect(planned.route?.spec.id).toBe('getPlayer');
    expect(planned).toMatchObject({ refusal: undefined, needsToken: true, fillsBucketFirst: false });
    expect(planned.count).toEqual({ category: 'read', by: 'player' });
    expect(planned.countUnauthorized).toEqual({ category: 'public', by: 'ip' });
  });

  it('an auth request counts by the client address, from a game origin too; a game origin is exempt from reads', () => {
    expect(plan({ method: 'POST', path: '/api/auth/register', origin: GAME_ORIGIN })).toMatchObject({
      needsToken: false,
      count: { category: 'auth', by: 'ip' },
      countUnauthorized: undefined,
    });
    expect(plan({ path: '/api/player', origin: GAME_ORIGIN })).toMatchObject({
      count: { category: 'read', by: 'exempt' },
      countUnauthorized: { category: 'public', by: 'exempt' },
    });
    expect(plan({ path: '/api/player', origin: GAME_ORIGIN, variants: ['ratelimit-headers-on-exempt'] }).count).toEqual({
      category: 'read',
      by: 'exempt',
      showsFullBucket: true,
    });
  });

  it('an unknown path is refused 404, counted as a public read; with auth-before-routing its token is checked first', () => {
    const unknown = plan({ path: '/api/nowhere' });
    expect(unknown).toMatchObject({ route: undefined, needsToken: false, count: { category: 'public', by: 'ip' } });
    expect(unknown.refusal).toMatchObject({ status: 404, message: 'No route for /api/nowhere' });
    expect(plan({ path: '/api/nowhere', variants: ['auth-before-routing'] })).toMatchObject({
      needsToken: true,
      countUnauthorized: { category: 'public', by: 'ip' },
    });
    expect(plan({ path: '/api/nowhere', variants: ['auth-before-routing', 'unauthorized-not-counted'] })).toMatchObject({
      needsToken: true,
      count: { category: 'public', by: 'ip' },
      countUnauthorized: undefined,
    });
  });

  it('a method the path does not serve is refused 405 with Allow; /health answers any under health-any-method', () => {
    const refused = plan({ method: 'DELETE', path: '/health' });
    expect(refused).toMatchObject({ route: undefined, count: { category: 'public', by: 'ip' } });
    expect(refused.refusal).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD' } });
    expect(plan({ method: 'DELETE', path: '/health', variants: ['health-any-method'] }).route?.spec.id).toBe('health');
  });

  it("a fault's status answers before any count; a rate-limit fault fills the bucket first", () => {
    const injected = plan({ path: '/api/player', fault: 'GET /api/player 503@1' });
    expect(injected).toMatchObject({ route: undefined, needsToken: false, count: undefined, countUnauthorized: undefined });
    expect(injected.refusal?.status).toBe(503);
    expect(plan({ path: '/api/player', fault: 'GET /api/player rate-limit@1' })).toMatchObject({ fillsBucketFirst: true, needsToken: true });
  });
});

describe('requestLoad: the plan as an engine that loads first is handed it', () => {
  it("names the buckets of both outcomes at the request's instant, the token's player where the key is undefined", () => {
    const context = contextOf({ path: '/api/player' });
    expect(requestLoad(context, planAdmission(context, router))).toEqual({
      control: false,
      precount: {
        now: NOW,
        windowEnd: NOW + 60_000,
        needsToken: true,
        admitted: { category: 'read', ip: undefined, limit: 60 },
        unauthorized: { category: 'public', ip: IP, limit: 60 },
      },
    });
  });

  it('counts nothing ahead for a control request, an exempt one, or one whose bucket a fault fills first', () => {
    const control = contextOf({ path: '/__mock/clock' });
    expect(requestLoad(control, CONTROL_PLAN)).toEqual({ control: true, precount: undefined });
    const exempt = contextOf({ path: '/health', origin: GAME_ORIGIN });
    expect(requestLoad(exempt, planAdmission(exempt, router)).precount).toBeUndefined();
    const filled = contextOf({ path: '/health', fault: 'GET /health rate-limit@1' });
    expect(requestLoad(filled, planAdmission(filled, router)).precount).toBeUndefined();
  });
});
