import { describe, expect, it } from 'vitest';
import { worldRuleBreaches } from './world.js';

const TOKEN = '0b6e1c1e-4a8e-4c55-9d3f-2f6a7c1d9e01';

describe('worldRuleBreaches', () => {
  it('finds nothing in a world without repeats or points above the maximum', () => {
    expect(worldRuleBreaches([{ email: 'a@example.com', token: TOKEN }, { email: 'b@example.com' }, {}], 10)).toEqual([]);
  });

  it('names every repeat with the index of the first player to hold the value, emails normalized and tokens in lower case', () => {
    const players = [
      { email: 'A@example.com', token: TOKEN },
      { email: 'b@example.com' },
      { email: 'a@example.com' },
      { email: 'a@EXAMPLE.com', token: TOKEN.toUpperCase() },
    ];
    expect(worldRuleBreaches(players, 10)).toEqual([
      { index: 2, field: 'email', value: 'a@example.com', earlier: 0 },
      { index: 3, field: 'email', value: 'a@example.com', earlier: 0 },
      { index: 3, field: 'token', value: TOKEN, earlier: 0 },
    ]);
  });

  it('lists points above the maximum first, then repeated emails, then repeated tokens, and reads players as written', () => {
    const players = [{ token: TOKEN }, null, { email: 'a@example.com', actionPoints: 11 }, { email: 'a@example.com', token: TOKEN, actionPoints: '12' }];
    expect(worldRuleBreaches(players, 10)).toEqual([
      { index: 2, field: 'actionPoints', value: 11 },
      { index: 3, field: 'email', value: 'a@example.com', earlier: 2 },
      { index: 3, field: 'token', value: TOKEN, earlier: 0 },
    ]);
  });
});
