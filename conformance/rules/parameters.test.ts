import { describe, expect, it } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import { ruleOf } from './index.js';

const REGISTER = '/api/auth/register';
const VERIFY = '/api/auth/verify-email';

/** REG-MISSING's or VERIFY-MISSING's judgements of `body` (text as sent) answered `status`: each aspect with whether it holds. */
function judgedParameters(path: string, body: string, status: number, parametersAlone?: boolean) {
  const exchange: Exchange = {
    method: 'POST',
    url: `https://game.example${path}`,
    requestHeaders: { 'content-type': 'application/json' },
    requestBody: body,
    status,
    headers: { 'content-type': 'application/json' },
    text: status < 300 ? '{"success":true}' : '{"error":"refused"}',
    body: status < 300 ? { success: true } : { error: 'refused' },
    sentAt: 1,
    receivedAt: 2,
  };
  const knowledge = { path, external: true, serverTime: { fromMs: 1, toMs: 2 }, ...(parametersAlone === undefined ? {} : { parametersAlone }) };
  const judge = ruleOf(path === REGISTER ? 'REG-MISSING' : 'VERIFY-MISSING').judge!;
  return judge(exchange, knowledge).map(({ aspect, holds }) => [aspect, holds]);
}

describe('missing or invalid parameters: "400 Bad request: missing or invalid parameters"', () => {
  it('holds a check, which sends them with nothing else to refuse, to 400', () => {
    for (const body of ['{}', '{"email":null}', '{"email":12345}', '{"email":[]}', '{"email":"  "}', 'null', '[]', '1']) {
      expect(judgedParameters(REGISTER, body, 400, true), body).toEqual([['refused-400', true]]);
      expect(judgedParameters(REGISTER, body, 422, true), body).toEqual([['refused-400', false]]);
    }
    for (const body of ['{"email":"a@example.com"}', '{"otp":"123456"}', '{"email":{},"otp":"123456"}']) {
      expect(judgedParameters(VERIFY, body, 400, true), body).toEqual([['refused-400', true]]);
      expect(judgedParameters(VERIFY, body, 401, true), body).toEqual([['refused-400', false]]);
    }
  });

  it('leaves a numeric otp to the lenient judgement where a check knows no more than the proxy; an unreadable body is due any 4xx', () => {
    // A server may read 123456 as "123456": then a wrong code's refusal, whose status is not shown.
    expect(judgedParameters(VERIFY, '{"email":"a@example.com","otp":123456}', 401, true)).toEqual([['invalid-no-server-error', true]]);
    expect(judgedParameters(REGISTER, '{', 415, true)).toEqual([['unreadable-refused', true]]);
    expect(judgedParameters(REGISTER, '{', 200, true)).toEqual([['unreadable-refused', false]]);
  });

  it('fails, in traffic it did not shape, only an acceptance or a server error: another refusal may come first', () => {
    expect(judgedParameters(REGISTER, '{"email":12345}', 422)).toEqual([['invalid-no-server-error', true]]);
    expect(judgedParameters(REGISTER, '{}', 429)).toEqual([
      ['missing-refused', true],
      ['invalid-no-server-error', true],
    ]);
    expect(judgedParameters(REGISTER, '{}', 200)).toEqual([
      ['missing-refused', false],
      ['invalid-no-server-error', true],
    ]);
    expect(judgedParameters(VERIFY, '{"email":12345,"otp":"123456"}', 500)).toEqual([['invalid-no-server-error', false]]);
  });
});
