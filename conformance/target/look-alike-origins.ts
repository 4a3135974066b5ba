/**
 * Origins that only look like `gameOrigin`: a longer host name that starts with it, the other scheme, another
 * port. The spec exempts "configured game origins": these are none, and are counted like any external caller.
 */
export function lookAlikeOrigins(gameOrigin: string): string[] {
  const url = new URL(gameOrigin);
  const otherScheme = url.protocol === 'https:' ? 'http:' : 'https:';
  const otherPort = url.port === '8443' ? '8444' : '8443';
  const port = url.port === '' ? '' : `:${url.port}`;
  return [`${url.protocol}//${url.hostname}.example.net${port}`, `${otherScheme}//${url.host}`, `${url.protocol}//${url.hostname}:${otherPort}`];
}
