import { ROUTES } from '../spec/routes.js';

/** Every path a route's own path begins with, by whole segments: /api, /api/auth, /api/player, /health, … */
const ROUTE_PREFIXES: readonly string[] = [
  ...new Set(
    ROUTES.flatMap(({ path }) => {
      const segments = path.split('/').slice(1);
      return segments.map((_segment, index) => `/${segments.slice(0, index + 1).join('/')}`);
    }),
  ),
].sort((a, b) => b.length - a.length);

/**
 * Why a base URL (check's and fuzz's --base-url, the proxy's --target) that ends in a route's own prefix is likely
 * a mistake (`http://host:8080/api`: every route already begins with /api, so requests would go to
 * /api/api/health), with the URL to use instead; undefined when its path ends in none.
 */
export function repeatedRoutePrefix(baseUrl: string, flag = '--base-url'): string | undefined {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const prefix = ROUTE_PREFIXES.find((each) => path === each || path.endsWith(each));
  if (prefix === undefined) return undefined;
  const instead = new URL(`${path.slice(0, path.length - prefix.length)}/`, url.origin).toString();
  const example = ROUTES.find((route) => route.path.startsWith(`${prefix}/`) || route.path === prefix)!.path;
  return (
    `${flag} ${JSON.stringify(baseUrl)} ends in ${prefix}, which the spec's routes begin with: ${example} would be sent to ${path}${example}. ` +
    `Use ${flag} ${instead} (or pass --keep-base-path if the server's routes really are under ${path})`
  );
}
