import { describe, expect, it } from 'vitest';
import { repeatedRoutePrefix } from './base-url-path.js';

describe('a --base-url whose path repeats the routes’ own prefix', () => {
  it.each([
    ['http://host:8080/api', '/api', 'http://host:8080/'],
    ['http://host:8080/api/', '/api', 'http://host:8080/'],
    ['https://example.com/game/api/auth', '/api/auth', 'https://example.com/game/'],
    ['http://host/api/player', '/api/player', 'http://host/'],
    ['http://host/health', '/health', 'http://host/'],
  ])('%s ends in %s: use %s', (url, prefix, instead) => {
    const message = repeatedRoutePrefix(url);
    expect(message).toContain(`ends in ${prefix}, which the spec's routes begin with`);
    expect(message).toContain(`Use --base-url ${instead} (or pass --keep-base-path`);
  });

  it.each(['http://host:8080', 'http://host:8080/', 'https://example.com/game-service/', 'http://host/apis', 'http://host/v1'])(
    '%s is taken as it is',
    (url) => {
      expect(repeatedRoutePrefix(url)).toBeUndefined();
    },
  );
});
