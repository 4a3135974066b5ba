import { describe, expect, it } from 'vitest';
import { lookAlikeOrigins } from './look-alike-origins.js';

describe('lookAlikeOrigins', () => {
  it('gives a longer host, the other scheme and another port, none of them the origin itself', () => {
    expect(lookAlikeOrigins('http://game.example')).toEqual(['http://game.example.example.net', 'https://game.example', 'http://game.example:8443']);
    expect(lookAlikeOrigins('https://game.example:8443')).toEqual([
      'https://game.example.example.net:8443',
      'http://game.example:8443',
      'https://game.example:8444',
    ]);
  });
});
