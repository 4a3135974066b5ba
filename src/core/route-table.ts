import { MOCK_ROUTES, ROUTES, type RouteSpec } from '../spec/routes.js';
import { register, verifyEmail } from './auth.js';
import { optionalString, readJsonObject, requiredString } from './body.js';
import { MAX_EMAIL_LENGTH } from './email.js';
import type { ServiceRequest } from './http.js';
import { gameplayRouteId, OptionsError, type ResolvedOptions } from './options.js';
import { createShip, performAction, playerView, readShip } from './player.js';
import type { Player, Store } from './store.js';

const MAX_CHALLENGE_TOKEN_LENGTH = 2048;
const GAMEPLAY_PATH = /^\/api\/[A-Za-z0-9\-._~/]+$/;

export interface RouteContext {
  request: ServiceRequest;
  now: number;
  /** Set on routes whose spec requires a bearer token, once it has been checked. */
  player: Player | undefined;
}

/** A spec route, or a gameplay route from the configuration (which may use PUT, PATCH or DELETE). */
export type RouteDefinition = Omit<RouteSpec, 'method'> & { readonly method: string };

export interface Route {
  spec: RouteDefinition;
  /** Returns the success body (status 200) or throws an ApiError. */
  handle(context: RouteContext): unknown;
}

/** Routes by path, then by method: the whole API of the spec as plain functions. */
export type RouteTable = ReadonlyMap<string, ReadonlyMap<string, Route>>;

function signedIn(context: RouteContext): Player {
  if (context.player === undefined) throw new Error(`${context.request.path} reached its handler without a player`);
  return context.player;
}

export function createRouteTable(store: Store, options: ResolvedOptions): RouteTable {
  const handlers: Record<(typeof ROUTES)[number]['id'], Route['handle']> = {
    health: () => (options.variants.has('health-without-success') ? { status: 'ok', version: options.version } : { success: true, status: 'ok', version: options.version }),
    register: ({ request }) => {
      const body = readJsonObject(request);
      const email = requiredString(body, 'email', MAX_EMAIL_LENGTH);
      // With the bot-check off, challengeToken is ignored whatever it holds (docs/spec-silent.md, "Bot-check").
      const challengeToken = options.botCheck.mode === 'off' ? undefined : optionalString(body, 'challengeToken', MAX_CHALLENGE_TOKEN_LENGTH);
      return register(store, options, email, challengeToken);
    },
    verifyEmail: ({ request }) => {
      const body = readJsonObject(request);
      return verifyEmail(store, options, requiredString(body, 'email', MAX_EMAIL_LENGTH), requiredString(body, 'otp', 64));
    },
    getPlayer: (context) => {
      const player = playerView(signedIn(context), options, context.now);
      return options.variants.has('player-fields-flat') ? { success: true, ...player } : { success: true, player };
    },
    createShip: (context) => createShip(signedIn(context), readJsonObject(context.request), options, context.now),
  };
  const table = new Map<string, Map<string, Route>>();
  const add = (route: Route) => {
    const byMethod = table.get(route.spec.path) ?? new Map<string, Route>();
    if (byMethod.has(route.spec.method)) throw new OptionsError(`gameplay route ${route.spec.id} is already a route of the service`);
    byMethod.set(route.spec.method, route);
    table.set(route.spec.path, byMethod);
  };
  for (const spec of ROUTES) add({ spec, handle: handlers[spec.id] });
  add({ spec: MOCK_ROUTES[0], handle: (context) => readShip(signedIn(context)) });
  for (const gameplayRoute of options.gameplayRoutes) {
    if (!GAMEPLAY_PATH.test(gameplayRoute.path)) {
      throw new OptionsError(`gameplay route path ${JSON.stringify(gameplayRoute.path)} must start with /api/ and hold only path characters`);
    }
    const spec = { id: gameplayRouteId(gameplayRoute), method: gameplayRoute.method, path: gameplayRoute.path, category: 'gameplay', auth: 'bearer' } as const;
    add({ spec, handle: (context) => performAction(signedIn(context), gameplayRoute, options, context.now) });
  }
  return table;
}
