import type { JSONSchemaType } from 'ajv';
import { readJsonObject } from '../body.js';
import { normalizeEmail } from '../email.js';
import { ApiError } from '../errors.js';
import { queryParameter } from '../http.js';
import { playerView } from '../player-view.js';
import type { Player } from '../store.js';
import { validator } from '../validation.js';
import { seedPlayer } from '../world.js';
import { worldPlayerSchema } from '../world-schema.js';
import { type ControlContext, type ControlRoute, declaredRoute } from './control-route.js';
import { PAGE_QUERY, pageBody, pageQuery } from './listing.js';

const parseNewPlayer = validator(worldPlayerSchema, 'body');
const POINTS_SCHEMA = {
  type: 'object',
  required: ['points'],
  additionalProperties: false,
  properties: { points: { type: 'integer', minimum: 0 } },
} satisfies JSONSchemaType<{ points: number }>;
const parsePoints = validator<{ points: number }>(POINTS_SCHEMA, 'body');

/** Players by id or by email, so that tests can name them either way. */
export function findPlayer(context: ControlContext, idOrEmail: string): Player {
  const player = idOrEmail.includes('@') ? context.store.playerByEmail(normalizeEmail(idOrEmail)) : context.store.players.get(idOrEmail);
  if (player === undefined) throw new ApiError(404, `No player ${idOrEmail}`);
  return player;
}

export function controlPlayerView(context: ControlContext, player: Player, now: number) {
  return { ...playerView(player, context.options.actionPoints, now), inEncounter: player.inEncounter };
}

/** Players straight into any state: created verified or not, with points set, in or out of an encounter. */
export function playerRoutes(context: ControlContext): ControlRoute[] {
  const { options } = context;
  const view = (player: Player, now: number) => ({ player: controlPlayerView(context, player, now) });
  const encounterRoute = (key: 'startEncounter' | 'endEncounter', inEncounter: boolean) =>
    declaredRoute(key, ({ now, params }) => {
      const player = findPlayer(context, params['id']!);
      player.inEncounter = inEncounter;
      return view(player, now);
    });
  return [
    declaredRoute(
      'players',
      ({ request, now }) => {
        const email = queryParameter(request, 'email');
        if (email !== undefined) {
          const player = context.store.playerByEmail(normalizeEmail(email));
          return pageBody('players', player === undefined ? [] : [controlPlayerView(context, player, now)], undefined);
        }
        const { limit, cursor } = pageQuery(request);
        const page = context.store.playersFrom(cursor ?? 0, limit);
        return pageBody(
          'players',
          page.players.map((player) => controlPlayerView(context, player, now)),
          page.next,
        );
      },
      { query: ['email', ...PAGE_QUERY] },
    ),
    declaredRoute(
      'createPlayer',
      ({ request, now }) => {
        const seeded = seedPlayer(context.store, options, parseNewPlayer(readJsonObject(request)), now);
        return { ...view(findPlayer(context, seeded.id), now), authToken: seeded.authToken, expiresAt: seeded.expiresAt };
      },
      { body: worldPlayerSchema },
    ),
    declaredRoute(
      'removePlayers',
      ({ request }) => {
        const emails = new URLSearchParams(request.query ?? '').getAll('email').map(normalizeEmail);
        if (emails.length === 0) throw new ApiError(400, 'query email is required: the addresses whose players and codes to remove (email=a@x&email=b@x)');
        return { removed: context.store.forgetEmails(new Set(emails)) };
      },
      { query: ['email'] },
    ),
    declaredRoute(
      'setActionPoints',
      ({ request, now, params }) => {
        const player = findPlayer(context, params['id']!);
        const { points } = parsePoints(readJsonObject(request));
        if (points > options.actionPoints.max) throw new ApiError(400, `body /points must be at most ${options.actionPoints.max}`);
        player.actionPoints = { points, accruedAt: now };
        return view(player, now);
      },
      { body: POINTS_SCHEMA },
    ),
    encounterRoute('startEncounter', true),
    encounterRoute('endEncounter', false),
  ];
}
