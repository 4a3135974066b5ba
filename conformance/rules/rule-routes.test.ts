import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/spec/routes.js';
import type { Exchange } from '../common/exchange.js';
import { judgeExchange, type Knowledge, RULES } from './index.js';
import { REFRESH_ROUTE_KEYS } from './refresh-probes.js';

const UUID = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';
const AT = Date.parse('2026-11-28T12:00:00Z');

/** Every route of the table under each method, the refresh routes, and paths beyond them. */
const ROUTE_KEYS = [
  ...new Set([
    ...ROUTES.flatMap((route) => ['GET', 'POST', 'PUT', 'DELETE', 'HEAD'].map((method) => `${method} ${route.path}`)),
    ...REFRESH_ROUTE_KEYS,
    'GET /api/elsewhere',
    'POST /api/elsewhere',
    'GET /',
  ]),
];

/** Answers of every kind a rule looks for: accepted with a token and a message, refused, limited, failed. */
const ANSWERS = [200, 201, 400, 401, 403, 404, 405, 409, 429, 500].flatMap((status) =>
  [
    { success: true, status: 'ok', version: 'x', message: 'A code was sent', authToken: 'not-a-uuid', expiresAt: '2026-11-29T12:00:00Z' },
    { error: '' },
    'not json',
  ].map((body) => ({ status, text: typeof body === 'string' ? body : JSON.stringify(body), body: typeof body === 'string' ? undefined : body })),
);

/** Requests of every kind: a token, a body with an address and a code, or neither. */
const REQUESTS = [
  { headers: { authorization: `Bearer ${UUID}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: 'pilot@mailinator.com', otp: '12' }) },
  { headers: {}, body: undefined },
];

/** All the session knows, so that no rule stays silent for want of it. */
const KNOWLEDGE: Omit<Knowledge, 'path'> = {
  external: true,
  serverTime: { fromMs: AT, toMs: AT + 999 },
  refusedCredentials: 'a token never issued',
  retryAllowedAt: AT + 60_000,
  encounterOpen: true,
  tokenExpiresAt: AT - 86_400_000,
  unverifiedPlayer: true,
  registeredAt: AT - 86_400_000,
  codeUsedBefore: true,
};

/** Every exchange of the samples, on every route, with the path it was judged under. */
function* samples(): Generator<{ route: string; path: string; exchange: Exchange }> {
  for (const route of ROUTE_KEYS) {
    const [method, path] = route.split(' ') as [string, string];
    for (const request of REQUESTS) {
      for (const answer of ANSWERS) {
        const exchange: Exchange = {
          method,
          url: `https://game.example${path}`,
          requestHeaders: request.headers,
          requestBody: request.body,
          headers: { 'content-type': 'application/json', date: new Date(AT).toUTCString() },
          sentAt: AT,
          receivedAt: AT + 1,
          ...answer,
        };
        yield { route, path, exchange };
      }
    }
  }
}

describe("a rule's routes", () => {
  it('bound where it judges: on any other route, with any answer and any session, it judges nothing', () => {
    const confined = RULES.filter((rule) => rule.routes !== undefined);
    expect(confined.length).toBeGreaterThan(10);
    for (const { route, path, exchange } of samples()) {
      // Each judge asked itself: judging an exchange would skip it off its routes.
      for (const rule of confined.filter((each) => !each.routes?.has(route))) {
        expect(rule.judge?.(exchange, { path, ...KNOWLEDGE }), `${rule.id} on ${route} answered ${exchange.status}`).toEqual([]);
      }
    }
  });

  it('leave the verdicts of judging an exchange as every rule asked in turn gives them, in order', () => {
    for (const { path, exchange } of samples()) {
      const knowledge = { path, ...KNOWLEDGE };
      const everyRule = RULES.flatMap((rule) =>
        (rule.judge?.(exchange, knowledge) ?? []).map((judgement) => ({ ...judgement, rule: rule.id, side: rule.side })),
      );
      expect(judgeExchange(exchange, knowledge)).toEqual(everyRule);
    }
  });
});
