import { describe, expect, it } from 'vitest';
import { exchangeOf, judgementsOf, knowledgeOf } from '../../test/support/judged-exchange.js';
import { judgeExchange } from './index.js';

// What the rules ask of a request given what the check that sent it knows (shaped to succeed, the clock, the points
// it set, the code it read): each proven both ways, and live traffic not judged on it.

const UUID = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';
const HEALTH = { method: 'GET', path: '/health', body: { status: 'ok', version: '1.0.0' } };
const REGISTER = { method: 'POST', path: '/api/auth/register', json: { email: 'pilot@example.com' }, body: { success: true, message: 'A code was sent' } };
const VERIFY = {
  method: 'POST',
  path: '/api/auth/verify-email',
  json: { email: 'pilot@example.com', otp: '123456' },
  body: { success: true, authToken: UUID, expiresAt: '2030-01-08T00:00:00.000Z' },
};

/** Whether the rule's "status 200" judgement holds: undefined where it makes none. */
const ok = (rule: 'HEALTH-NOAUTH' | 'REG-OK' | 'VERIFY-OK' | 'ENV-SUCCESS', sketch: object, status: number, shaped: boolean) =>
  judgementsOf([rule], { ...(sketch as { method: string; path: string }), status }, shaped ? { shaped: true } : {}).find(({ aspect }) => aspect === 'ok')
    ?.holds;

describe("a request a check shaped to succeed is due 200, the spec's one success status", () => {
  it.each([
    ['HEALTH-NOAUTH', HEALTH],
    ['REG-OK', REGISTER],
    ['VERIFY-OK', VERIFY],
    ['ENV-SUCCESS', { method: 'GET', path: '/api/player', requestHeaders: { authorization: `Bearer ${UUID}` }, body: { success: true, player: {} } }],
  ] as const)('%s: 200 holds and 201 does not, shaped; live traffic is judged on neither', (rule, sketch) => {
    expect(ok(rule, sketch, 200, true)).toBe(true);
    expect(ok(rule, sketch, 201, true)).toBe(false);
    expect(ok(rule, sketch, 500, true)).toBe(false);
    expect(ok(rule, sketch, 201, false)).toBeUndefined();
  });
});

describe('OTP-EXPIRY: a code a check used within its 15 minutes is due its acceptance, and once they have passed its refusal', () => {
  const used = (minutes: number, status: number, shaped = true) =>
    judgementsOf(
      ['OTP-EXPIRY'],
      { ...VERIFY, status, body: status === 200 ? VERIFY.body : { error: 'expired' } },
      { registeredAt: 0, serverTime: { fromMs: minutes * 60_000, toMs: minutes * 60_000 }, shaped },
    );
  const refused = (holds: boolean) => [
    { rule: 'OTP-EXPIRY', aspect: 'refused', holds },
    { rule: 'OTP-EXPIRY', aspect: 'no-token', holds },
  ];

  it('a 200 holds and a refusal does not, 1 s before the end', () => {
    expect(used(15 - 1 / 60, 200)).toEqual([{ rule: 'OTP-EXPIRY', aspect: 'ok', holds: true }]);
    expect(used(15 - 1 / 60, 400)).toEqual([{ rule: 'OTP-EXPIRY', aspect: 'ok', holds: false }]);
  });

  it('at the end and after, a 4xx without a token holds and an acceptance does not', () => {
    expect(used(15, 400)).toEqual(refused(true));
    expect(used(15, 200)).toEqual(refused(false));
    expect(used(16, 401)).toEqual(refused(true));
  });

  it('live traffic: only an acceptance past the 15 minutes (and the clock slack) departs, a refusal is not judged', () => {
    expect(used(16, 200, false)).toEqual([{ rule: 'OTP-EXPIRY', aspect: 'expired', holds: false }]);
    expect(used(16, 400, false)).toEqual([]);
    expect(used(15, 200, false)).toEqual([]);
  });
});

describe('REG-MISSING and VERIFY-MISSING: what a check that kept every other reason away knows is a bad request', () => {
  const unreadable = (path: string, status: number, parametersAlone: boolean) => {
    const exchange = { ...exchangeOf({ method: 'POST', path, status, body: status === 200 ? { success: true } : { error: 'bad' } }), requestBody: '{' };
    return judgeExchange(exchange, knowledgeOf(path, parametersAlone ? { parametersAlone } : {}))
      .filter((verdict) => verdict.aspect === 'unreadable-refused')
      .map((verdict) => verdict.holds);
  };

  it.each(['/api/auth/register', '/api/auth/verify-email'])(
    '%s: a body that is no JSON is due a 4xx, whichever (400, 415, 422), shaped; live, no such judgement',
    (path) => {
      expect(unreadable(path, 400, true)).toEqual([true]);
      expect(unreadable(path, 415, true)).toEqual([true]);
      expect(unreadable(path, 200, true)).toEqual([false]);
      expect(unreadable(path, 500, true)).toEqual([false]);
      expect(unreadable(path, 200, false)).toEqual([]);
    },
  );

  it('a numeric otp for an address whose pending code it cannot be is due a 4xx (400 as invalid, or refused as a wrong code); not without that knowledge', () => {
    const numeric = (status: number, wrongCode: boolean) =>
      judgementsOf(
        ['VERIFY-MISSING'],
        { ...VERIFY, json: { email: 'pilot@example.com', otp: 123456 }, status, body: status === 200 ? VERIFY.body : { error: 'bad' } },
        { parametersAlone: true, ...(wrongCode ? { wrongCode } : {}) },
      );
    expect(numeric(400, true)).toEqual([{ rule: 'VERIFY-MISSING', aspect: 'invalid-refused', holds: true }]);
    expect(numeric(401, true)).toEqual([{ rule: 'VERIFY-MISSING', aspect: 'invalid-refused', holds: true }]);
    expect(numeric(200, true)).toEqual([{ rule: 'VERIFY-MISSING', aspect: 'invalid-refused', holds: false }]);
    // Read leniently, 123456 may be the pending code: only a server error departs.
    expect(numeric(200, false)).toEqual([{ rule: 'VERIFY-MISSING', aspect: 'invalid-no-server-error', holds: true }]);
  });
});

describe('TOKEN-EXPIRY: a token a check knows is not yet 7 days old is due its acceptance', () => {
  const DAY = 86_400_000;
  const read = (ageMs: number, status: number) =>
    judgementsOf(
      ['TOKEN-EXPIRY'],
      {
        method: 'GET',
        path: '/api/player',
        requestHeaders: { authorization: `Bearer ${UUID}` },
        status,
        body: status === 200 ? { success: true } : { error: 'expired' },
      },
      { tokenIssuedAt: { fromMs: 0, toMs: 10 }, serverTime: { fromMs: ageMs, toMs: ageMs }, shaped: true },
    );

  it('a 200 holds and a 401 does not a minute before the 7 days; past them, none is due of a shaped request', () => {
    expect(read(7 * DAY - 60_000, 200)).toEqual([{ rule: 'TOKEN-EXPIRY', aspect: 'ok', holds: true }]);
    expect(read(7 * DAY - 60_000, 401)).toEqual([{ rule: 'TOKEN-EXPIRY', aspect: 'ok', holds: false }]);
    expect(read(7 * DAY + 60_000, 401)).toEqual([]);
  });
});

describe('AP-HEADERS: a gameplay answer leaves no more points than the player had', () => {
  const created = (remaining: string | undefined) =>
    judgementsOf(
      ['AP-HEADERS'],
      {
        method: 'POST',
        path: '/api/player/ship',
        requestHeaders: { authorization: `Bearer ${UUID}` },
        json: { name: 'Nomad' },
        status: 403,
        body: { error: 'Not enough action points' },
        headers: remaining === undefined ? {} : { 'x-actionpoints-remaining': remaining, 'x-actionpoints-nextrefill': '60' },
      },
      { actionPointsBefore: 0 },
    ).find(({ aspect }) => aspect === 'no-more-than-before')?.holds;

  it('with none left: 0 holds; 1, or no header, does not', () => {
    expect(created('0')).toBe(true);
    expect(created('1')).toBe(false);
    expect(created(undefined)).toBe(false);
  });
});

describe('OTP-LENGTH: the code delivered for a registration, as the sender read it from the email', () => {
  const delivered = (code: string) =>
    judgementsOf(['OTP-LENGTH'], { ...REGISTER, status: 200 }, { deliveredCode: code }).map(({ aspect, holds }) => ({ aspect, holds }));

  it('holds for 6 digits, not for 5, 7 or letters', () => {
    expect(delivered('481516')).toEqual([{ aspect: 'delivered-six-digits', holds: true }]);
    for (const code of ['48151', '4815162', '48a516']) expect(delivered(code)).toEqual([{ aspect: 'delivered-six-digits', holds: false }]);
  });
});

describe('TOKEN-NO-REFRESH: a token a refresh request answered, in whatever field, that the API then accepted', () => {
  const refreshed = (accepted: boolean | undefined) =>
    judgementsOf(
      ['TOKEN-NO-REFRESH'],
      {
        method: 'POST',
        path: '/api/auth/refresh',
        requestHeaders: { authorization: `Bearer ${UUID}` },
        status: 200,
        body: { success: true, session: { jwt: 'x'.repeat(40) } },
      },
      accepted === undefined ? {} : { refreshedTokenAccepted: accepted },
    ).find(({ aspect }) => aspect === 'no-working-token')?.holds;

  it('departs where the sender found it accepted, holds where not, and is not judged where it did not try', () => {
    expect(refreshed(true)).toBe(false);
    expect(refreshed(false)).toBe(true);
    expect(refreshed(undefined)).toBeUndefined();
  });
});

describe('RL-REMAINING: Remaining on a response a check counted in a bucket of a known size', () => {
  const counted = (remaining: string) =>
    judgementsOf(['RL-REMAINING'], { ...HEALTH, status: 200, headers: { 'x-ratelimit-remaining': remaining } }, { bucketLimit: 60 }).find(
      ({ aspect }) => aspect === 'remaining-in-range',
    )?.holds;

  it('holds from 0 to the size less one, not at the size or below 0', () => {
    expect([counted('0'), counted('59')]).toEqual([true, true]);
    expect([counted('60'), counted('-1')]).toEqual([false, false]);
  });
});

describe('REG-DISPOSABLE: a disposable address a check sent is due a refusal that says so', () => {
  const refused = (status: number, body: unknown, shaped = true) =>
    judgementsOf(
      ['REG-DISPOSABLE'],
      { method: 'POST', path: '/api/auth/register', json: { email: 'a@Mailinator.COM' }, status, body },
      shaped ? { shaped: true } : {},
    ).find(({ aspect }) => aspect === 'refused')?.holds;

  it('a 4xx holds; a 4xx with success: true, or a 500, does not; live traffic is not asked it', () => {
    expect(refused(400, { error: 'Disposable addresses are not accepted' })).toBe(true);
    expect(refused(400, { success: true, error: 'Disposable' })).toBe(false);
    expect(refused(500, { error: 'Internal server error' })).toBe(false);
    expect(refused(400, { error: 'Disposable' }, false)).toBeUndefined();
  });
});

describe('RL-429: a bucket a check spent is due its 429', () => {
  const drained = (status: number) =>
    judgementsOf(
      ['RL-429'],
      { ...HEALTH, status, headers: status === 429 ? { 'retry-after': '30' } : {} },
      {
        bucketCount: { rule: 'RL-429', spent: true, why: 'the response before left Remaining 0' },
      },
    ).map(({ aspect, holds }) => ({ aspect, holds }));

  it('a 429 with its Retry-After holds; a 200 does not; traffic no check spent is judged on Retry-After alone', () => {
    expect(drained(429)).toEqual([
      { aspect: 'spent-429', holds: true },
      { aspect: '429-retry-after', holds: true },
    ]);
    expect(drained(200)).toEqual([{ aspect: 'spent-429', holds: false }]);
    expect(judgementsOf(['RL-429'], { ...HEALTH, status: 200 })).toEqual([]);
  });
});

describe('RL-REMAINING: one less per request a check counted in a window', () => {
  const countedDown = (remaining: string) =>
    judgementsOf(
      ['RL-REMAINING'],
      { ...HEALTH, status: 200, headers: { 'x-ratelimit-remaining': remaining } },
      {
        bucketCount: { rule: 'RL-REMAINING', since: { remaining: 42, counted: 1 }, why: 'one less than the response before' },
      },
    ).find(({ aspect }) => aspect === 'counted')?.holds;

  it('holds one less than the response before, not the same or two less', () => {
    expect(countedDown('41')).toBe(true);
    expect([countedDown('42'), countedDown('40')]).toEqual([false, false]);
  });
});

describe('RL-WINDOW: the window a counted response’s Reset names, in whatever unit it reads, is a minute long', () => {
  const NOW = Date.UTC(2026, 11, 6, 12);
  const window = (secondsAhead: number, shaped = true) =>
    judgementsOf(
      ['RL-WINDOW'],
      { ...HEALTH, status: 200, headers: { 'x-ratelimit-reset': String(NOW / 1000 + secondsAhead) } },
      {
        serverTime: { fromMs: NOW, toMs: NOW },
        ...(shaped ? { shaped: true } : {}),
      },
    ).find(({ aspect }) => aspect === 'window-a-minute')?.holds;

  it('holds for an end 30 s away, not for one 15 minutes away; traffic no check shaped is not judged on it', () => {
    expect(window(30)).toBe(true);
    expect(window(900)).toBe(false);
    expect(window(900, false)).toBeUndefined();
  });
});

describe('RL-RESET: one unit reads every Reset of a category a check collected', () => {
  const NOW = Date.UTC(2026, 11, 6, 12);
  const at = (ms: number) => ({ fromMs: NOW + ms, toMs: NOW + ms });
  const oneUnit = (values: readonly number[]) =>
    judgementsOf(
      ['RL-RESET'],
      { ...HEALTH, status: 200, headers: { 'x-ratelimit-reset': String(values.at(-1)) } },
      {
        resetSamples: values.map((value, index) => ({ value, at: at(index * 1000) })),
      },
    ).find(({ aspect }) => aspect === 'one-unit')?.holds;

  it('holds for epoch seconds throughout, not for epoch seconds then epoch milliseconds', () => {
    const end = NOW / 1000 + 60;
    expect(oneUnit([end, end, end])).toBe(true);
    expect(oneUnit([end, end * 1000])).toBe(false);
  });
});

describe("RL-429: a spent bucket's Retry-After, read against the window its Reset values name", () => {
  const NOW = Date.UTC(2026, 11, 6, 12);
  const refused = (retryAfter: number) =>
    judgementsOf(
      ['RL-429'],
      { ...HEALTH, status: 429, body: { error: 'slow down' }, headers: { 'retry-after': String(retryAfter) } },
      {
        serverTime: { fromMs: NOW, toMs: NOW },
        resetSamples: [{ value: NOW / 1000 + 30, at: { fromMs: NOW - 1000, toMs: NOW - 1000 } }],
      },
    ).find(({ aspect }) => aspect === 'retry-after-window')?.holds;

  it('holds for the 30 s to the window’s end, not for an hour', () => {
    expect(refused(30)).toBe(true);
    expect(refused(3600)).toBe(false);
  });
});
