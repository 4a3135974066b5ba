import { CliError } from './cli-error.js';

/**
 * A game origin as browsers send it in the Origin header (`scheme://host[:port]`), so that the exact
 * comparison the mock makes can match. A trailing slash is forgiven; a path, query or credentials are not.
 */
export function parseGameOrigin(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const isOrigin =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === '';
  if (!isOrigin) {
    throw new CliError('GS_USAGE', `--game-origin ${JSON.stringify(value)} is not an origin; expected scheme://host[:port], e.g. http://localhost:5173`);
  }
  return url.origin;
}
