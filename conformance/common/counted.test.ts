import { describe, expect, it } from 'vitest';
import { counted, perSecond } from './counted.js';

describe('counted', () => {
  it('puts the noun in the singular for one only', () => {
    expect(counted(1, 'sequence')).toBe('1 sequence');
    expect(counted(0, 'sequence')).toBe('0 sequences');
    expect(counted(2, 'client address', 'client addresses')).toBe('2 client addresses');
    expect(counted(1, 'malformed body', 'malformed bodies')).toBe('1 malformed body');
  });
});

describe('perSecond', () => {
  it('shows a slow real-time rate with a decimal, and never as 0 when something was done', () => {
    expect(perSecond(40, 300_000, 'commands')).toBe('0.1 commands/s');
    expect(perSecond(3, 65_000, 'commands')).toBe('under 0.1 commands/s');
    expect(perSecond(12, 5_000, 'commands')).toBe('2.4 commands/s');
    expect(perSecond(0, 5_000, 'commands')).toBe('0 commands/s');
  });

  it('shows a fast rate in whole numbers', () => {
    expect(perSecond(3_000, 10_000, 'commands')).toBe('300 commands/s');
    expect(perSecond(1, 0, 'commands')).toBe('1000 commands/s');
  });
});
