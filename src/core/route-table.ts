import { MOCK_ROUTES, ROUTES, type RouteSpec } from '../spec/routes.js';
import { register, verifyEmail } from './auth.js';
import { registerRequestSchema, verifyEmailRequestSchema } from '../spec/schemas.js';
import { optionalString, readJsonObject, requiredString, unknownFields } from './body.js';
import { MAX_EMAIL_LENGTH } from './email.js';
import type { ServiceRequest } from './http.js';
import type { ResolvedOptions } from './options.js';
import { createShip, playerView, readShip } from './player.js';
import { buildRouteTable, userRouteEntry } from './user-routes/user-route-table.js';
import type { Player, Store } from './store.js';

const MAX_CHALLENGE_TOKEN_LENGTH = 2048;

export interface RouteContext {
  request: ServiceRequest;
  now: number;
  /** Set on routes whose spec requires a bearer token, once it has been checked. */
  player: Player | undefined;
  /** Filled by a spec route's handler with the body's fields the spec does not name (for the refusal and the journal). */
  unknownFields: string[];
}

const REGISTER_FIELDS = Object.keys(registerRequestSchema.properties);
const VERIFY_FIELDS = Object.keys(verifyEmailRequestSchema.properties);

/** The JSON object body of a spec route, its unknown fields noted in the context. */
function specBody(context: RouteContext, known: readonly string[]) {
  const body = readJsonObject(context.request);
  context.unknownFields.push(...unknownFields(body, known));
  return body;
}

/** A route of the spec or the mock, or one of the user's (`source` says where it was defined). */
export type RouteDefinition = Omit<RouteSpec, 'method'> & {
  readonly method: string;
  /** Set on the user's routes only: `config` (templates) or the handler's module and export. */
  readonly source?: string;
};

export interface Route {
  spec: RouteDefinition;
  /** Returns the success body (status 200), a RouteReply with a status of its own, or throws an ApiError. */
  handle(context: RouteContext): unknown;
}

/** The routes of each path by method: the spec's, the mock's and the user's, as plain functions. */
export interface RouteTable {
  /** One Map lookup for a path of its own; the user's `:param` patterns only when that misses. */
  find(path: string): ReadonlyMap<string, Route> | undefined;
  /** Every route, in the order of the table. */
  readonly routes: readonly Route[];
}

function signedIn(context: RouteContext): Player {
  if (context.player === undefined) throw new Error(`${context.request.path} reached its handler without a player`);
  return context.player;
}

export function createRouteTable(store: Store, options: ResolvedOptions): RouteTable {
  const handlers: Record<(typeof ROUTES)[number]['id'], Route['handle']> = {
    health: () =>
      options.variants.has('health-without-success') ? { status: 'ok', version: options.version } : { success: true, status: 'ok', version: options.version },
    register: (context) => {
      const body = specBody(context, REGISTER_FIELDS);
      const email = requiredString(body, 'email', MAX_EMAIL_LENGTH);
      // With the bot-check off, challengeToken is ignored whatever it holds (docs/spec-silent.md, "Bot-check").
      const challengeToken = options.botCheck.mode === 'off' ? undefined : optionalString(body, 'challengeToken', MAX_CHALLENGE_TOKEN_LENGTH);
      return register(store, options, email, challengeToken);
    },
    verifyEmail: (context) => {
      const body = specBody(context, VERIFY_FIELDS);
      return verifyEmail(store, options, requiredString(body, 'email', MAX_EMAIL_LENGTH), requiredString(body, 'otp', 64));
    },
    getPlayer: (context) => {
      const player = playerView(signedIn(context), options, context.now);
      return options.variants.has('player-fields-flat') ? { success: true, ...player } : { success: true, player };
    },
    createShip: (context) => createShip(signedIn(context), readJsonObject(context.request), options, context.now),
  };
  const builtIn: Route[] = [
    ...ROUTES.map((spec) => ({ spec, handle: handlers[spec.id] })),
    { spec: MOCK_ROUTES[0], handle: (context: RouteContext) => readShip(signedIn(context)) },
  ];
  return buildRouteTable(
    builtIn,
    options.userRoutes.map((route) => userRouteEntry(route, options)),
  );
}
