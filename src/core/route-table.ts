import { MOCK_ROUTES, ROUTES } from '../spec/routes.js';
import { registerRequestSchema, verifyEmailRequestSchema } from '../spec/schemas.js';
import { register, verifyEmail } from './auth.js';
import { optionalString, readJsonObject, requiredString } from './body.js';
import { MAX_EMAIL_LENGTH } from './email.js';
import { createShip, readShip } from './player.js';
import { playerView } from './player-view.js';
import type { RequestContext } from './request-context.js';
import type { Route } from './route-definition.js';
import type { Player } from './store.js';
import type { CompiledUserRoute } from './user-routes/compile-routes.js';
import { replacedByUser } from './user-routes/user-route.js';
import { userRoute } from './user-routes/user-route-entry.js';

const MAX_CHALLENGE_TOKEN_LENGTH = 2048;

function signedIn(context: RequestContext, player: Player | undefined): Player {
  if (player === undefined) throw new Error(`${context.request.path} reached its handler without a player`);
  return player;
}

type SpecHandlers = Record<(typeof ROUTES)[number]['id'], Route['handle']>;

/** The spec's routes, as plain functions of the request's context. */
const SPEC_HANDLERS: SpecHandlers = {
  health: ({ config, variants }) =>
    variants.has('health-without-success') ? { status: 'ok', version: config.version } : { success: true, status: 'ok', version: config.version },
  register: (context) => {
    const body = readJsonObject(context.request);
    const email = requiredString(body, 'email', MAX_EMAIL_LENGTH);
    // With the bot-check off, challengeToken is ignored whatever it holds (docs/spec-silent.md, "Bot-check").
    const challengeToken = context.config.botCheck.mode === 'off' ? undefined : optionalString(body, 'challengeToken', MAX_CHALLENGE_TOKEN_LENGTH);
    return register(context, email, challengeToken);
  },
  verifyEmail: (context) => {
    const body = readJsonObject(context.request);
    return verifyEmail(context, requiredString(body, 'email', MAX_EMAIL_LENGTH), requiredString(body, 'otp', 64));
  },
  getPlayer: (context, player) => {
    const view = playerView(signedIn(context, player), context.config.actionPoints, context.now);
    // The user's player fields may name `success`: the envelope's stays true.
    return context.variants.has('player-fields-flat') ? Object.assign({ success: true }, view, { success: true }) : { success: true, player: view };
  },
  createShip: (context, player) => createShip(context, signedIn(context, player), readJsonObject(context.request)),
};

/** The body fields each spec route that reads a body names; the others are told back in a refusal and journaled. */
const BODY_FIELDS: Partial<Record<keyof SpecHandlers, readonly string[]>> = {
  register: Object.keys(registerRequestSchema.properties),
  verifyEmail: Object.keys(verifyEmailRequestSchema.properties),
};

/** The routes the mock adds beyond the spec's table; a route of the user's may replace one. */
const MOCK_ROUTE_HANDLERS: readonly Route[] = [{ spec: MOCK_ROUTES[0], handle: (context, player) => readShip(signedIn(context, player)) }];

/** Every route of the API: the spec's, the mock's (less those the user replaces), then the user's, in the order the control API lists them. */
export function apiRoutes(userRoutes: readonly CompiledUserRoute[]): Route[] {
  const spec = ROUTES.map((definition): Route => {
    const bodyFields = BODY_FIELDS[definition.id];
    return bodyFields === undefined
      ? { spec: definition, handle: SPEC_HANDLERS[definition.id] }
      : { spec: definition, bodyFields, handle: SPEC_HANDLERS[definition.id] };
  });
  const mock = MOCK_ROUTE_HANDLERS.filter(({ spec }) => !replacedByUser(spec, userRoutes));
  return [...spec, ...mock, ...userRoutes.map(userRoute)];
}
