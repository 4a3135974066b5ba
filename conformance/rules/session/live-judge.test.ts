import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../common/exchange.js';
import { LiveJudge } from './live-judge.js';

const DAY_MS = 86_400_000;
const ISSUED = Date.parse('2026-11-28T12:00:00Z');

/** A verification answered with a token that expires 7 days after ISSUED, its Date header as given (or none). */
function verification(judge: LiveJudge, date: number | undefined, receivedAt = ISSUED) {
  const requestBody = JSON.stringify({ email: 'pilot@example.com', otp: '123456' });
  const headers = { 'content-type': 'application/json' };
  const pending = judge.begin({ method: 'POST', path: '/api/auth/verify-email', headers, clientIp: '198.51.100.7', receivedAt });
  const body = { success: true, authToken: crypto.randomUUID(), expiresAt: new Date(ISSUED + 7 * DAY_MS).toISOString() };
  const exchange: Exchange = {
    method: 'POST',
    url: 'http://target.invalid/api/auth/verify-email',
    requestHeaders: headers,
    requestBody,
    status: 200,
    headers: { 'content-type': 'application/json', ...(date === undefined ? {} : { date: new Date(date).toUTCString() }) },
    text: JSON.stringify(body),
    body,
    sentAt: receivedAt,
    receivedAt,
  };
  return judge.end(pending, exchange).map((finding) => finding.rule);
}

describe('the live judge', () => {
  it("reads each answer's time from its own Date header, whichever came before", () => {
    const judge = new LiveJudge([]);
    expect(verification(judge, ISSUED)).not.toContain('TOKEN-LIFETIME');
    // A day later, the same expiresAt is 6 days away.
    expect(verification(judge, ISSUED + DAY_MS)).toContain('TOKEN-LIFETIME');
    expect(verification(judge, ISSUED + DAY_MS)).toContain('TOKEN-LIFETIME');
    expect(verification(judge, ISSUED)).not.toContain('TOKEN-LIFETIME');
    // Without a Date header, this machine's time while the request was out.
    expect(verification(judge, undefined, ISSUED + DAY_MS)).toContain('TOKEN-LIFETIME');
    expect(verification(judge, undefined, ISSUED)).not.toContain('TOKEN-LIFETIME');
  });
});
