import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../common/exchange.js';
import { SessionTraffic } from './session-traffic.js';

const GAME_ORIGIN = 'https://play.game.example';
const TOKEN = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';

/** A game origin's read of a route beyond the spec's table, answered with `remaining` of an exempt bucket's 60. */
function read(remaining: number, at: number): Exchange {
  return {
    method: 'GET',
    url: 'https://game.example/api/leaderboard',
    requestHeaders: { authorization: `Bearer ${TOKEN}`, origin: GAME_ORIGIN },
    requestBody: undefined,
    status: 200,
    headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': '1800000060' },
    text: '{"success":true}',
    body: { success: true },
    sentAt: at,
    receivedAt: at,
  };
}

function send(session: SessionTraffic, exchange: Exchange): void {
  const headers = exchange.requestHeaders;
  session.sending({ method: 'GET', path: '/api/leaderboard', headers, clientIp: '198.51.100.7', receivedAt: exchange.sentAt }).answered(exchange);
}

describe("a session's report of a rule judged by the session it opens", () => {
  it("counts the answers the rule's own session judged, so that its departure is reported, not skipped as never judged", () => {
    const session = new SessionTraffic([GAME_ORIGIN]);
    send(session, read(59, 1_000));
    send(session, read(58, 2_000));
    const report = session.report('RL-EXEMPT');
    expect(report.breaches).toBe(1);
    expect(report.judged).toBeGreaterThanOrEqual(report.breaches);
    expect(report.first[0]?.message).toMatch(/fell from 59 to 58 across two requests of a game origin/);
  });
});
