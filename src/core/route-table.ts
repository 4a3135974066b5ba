import { ROUTES, type RouteSpec } from '../spec/routes.js';
import { register, verifyEmail } from './auth.js';
import { optionalString, readJsonObject, requiredString } from './body.js';
import { MAX_EMAIL_LENGTH } from './email.js';
import type { ServiceRequest } from './http.js';
import type { ResolvedOptions } from './options.js';
import { createShip, playerView } from './player.js';
import type { Player, Store } from './store.js';

const MAX_CHALLENGE_TOKEN_LENGTH = 2048;

export interface RouteContext {
  request: ServiceRequest;
  now: number;
  /** Set on routes whose spec requires a bearer token, once it has been checked. */
  player: Player | undefined;
}

export interface Route {
  spec: RouteSpec;
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
    health: () => ({ success: true, status: 'ok', version: options.version }),
    register: ({ request }) => {
      const body = readJsonObject(request);
      const email = requiredString(body, 'email', MAX_EMAIL_LENGTH);
      return register(store, options, email, optionalString(body, 'challengeToken', MAX_CHALLENGE_TOKEN_LENGTH));
    },
    verifyEmail: ({ request }) => {
      const body = readJsonObject(request);
      return verifyEmail(store, options, requiredString(body, 'email', MAX_EMAIL_LENGTH), requiredString(body, 'otp', 64));
    },
    getPlayer: (context) => ({ success: true, player: playerView(signedIn(context), options, context.now) }),
    createShip: (context) => createShip(signedIn(context), readJsonObject(context.request), options, context.now),
  };
  const table = new Map<string, Map<string, Route>>();
  for (const spec of ROUTES) {
    const byMethod = table.get(spec.path) ?? new Map<string, Route>();
    byMethod.set(spec.method, { spec, handle: handlers[spec.id] });
    table.set(spec.path, byMethod);
  }
  return table;
}
