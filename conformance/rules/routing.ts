import { ROUTES } from '../../src/spec/routes.js';
import { judged, type Rule, routeKey } from './rule.js';

/**
 * The paths whose other methods must be refused 405, as the routing check probes them: those of the routes that
 * need no token. On a player's path another method may be an endpoint beyond the table ("not shown"), whose 404
 * says the player's resource does not exist (GET /api/player/ship before a ship is made).
 */
const TOKENLESS_PATHS = new Set<string>(ROUTES.filter((route) => route.auth === 'none').map((route) => route.path));
const TABLE_ROUTES = new Set<string>(ROUTES.map((route) => `${route.method} ${route.path}`));

/** A path that is not served, and a method a path does not take. */
export const ROUTING_RULES = [
  { id: 'ERR-404', side: 'server', quote: '404 Not found', sentences: ['ERR-STATUS-404'] },
  {
    id: 'ERR-405',
    side: 'server',
    quote: '405 Method not allowed',
    sentences: ['ERR-STATUS-405'],
    proxy: 'no 404 to another method of a path of the table that needs no token',
    judge(exchange, knowledge) {
      const { path } = knowledge;
      if (!TOKENLESS_PATHS.has(path) || TABLE_ROUTES.has(routeKey(exchange, knowledge))) return [];
      return [
        judged(
          'not-404',
          exchange.status !== 404,
          `a 405 to ${exchange.method} on ${path}, a path of the table`,
          `answered 404 to ${exchange.method} on ${path}, a path of the table: expected 405`,
        ),
      ];
    },
  },
] as const satisfies readonly Rule[];
