import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../common/exchange.js';
import { RULES } from '../index.js';
import { RuleSessions } from './rule-sessions.js';

/** A game origin's read of its player, answered with `remaining` of the read bucket's 60. */
function read(remaining: number): Exchange {
  return {
    method: 'GET',
    url: 'https://game.example/api/player',
    requestHeaders: { authorization: 'Bearer 3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f', origin: 'https://play.game.example' },
    requestBody: undefined,
    status: 200,
    headers: { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': '1800000060000' },
    text: '{}',
    body: {},
    sentAt: 0,
    receivedAt: 0,
  };
}

const KNOWLEDGE = { path: '/api/player', external: false, serverTime: { fromMs: 0, toMs: 0 }, caller: { ip: '198.51.100.7', gameOrigin: true } };

describe('the sessions the rules open', () => {
  it('opens one for each rule that judges a sequence of its own, and names the rule in its verdicts', () => {
    const sessions = new RuleSessions();
    expect(sessions.observe(read(59), KNOWLEDGE)).toEqual([]);
    const verdicts = sessions.observe(read(58), KNOWLEDGE);
    expect(verdicts.map((verdict) => [verdict.rule, verdict.side, verdict.holds])).toEqual([['RL-EXEMPT', 'server', false]]);
  });

  it('forgets what it kept when told the server moved behind the traffic', () => {
    const sessions = new RuleSessions();
    sessions.observe(read(59), KNOWLEDGE);
    sessions.forget();
    expect(sessions.observe(read(58), KNOWLEDGE)).toEqual([]);
  });

  it('opens none for a list without such rules', () => {
    const sessions = new RuleSessions(RULES.filter((each) => each.opens === undefined));
    sessions.observe(read(59), KNOWLEDGE);
    expect(sessions.observe(read(58), KNOWLEDGE)).toEqual([]);
  });
});
