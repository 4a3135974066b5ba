import type { JSONSchemaType } from 'ajv';
import { CONTROL_ROUTES } from '../../spec/control-routes.js';
import { RATE_LIMITS, type RateLimitCategory } from '../../spec/limits.js';
import { voidCode } from '../auth.js';
import { canonicalIp } from '../../spec/client-address.js';
import { readOptionalJsonObject } from '../body.js';
import { fillBucket } from '../rate-limit.js';
import { normalizeEmail } from '../email.js';
import { ApiError } from '../errors.js';
import { validator } from '../validation.js';
import { seedPlayer } from '../world.js';
import { type ControlContext, type ControlRoute, declaredRoute } from './control-route.js';
import { faultScenarios } from './fault-scenarios.js';
import { controlPlayerView, findPlayer } from './player-routes.js';
import type { Scenario } from './scenario.js';

const stringParameters = <K extends string>(...names: K[]) =>
  ({
    type: 'object',
    required: names,
    additionalProperties: false,
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string', minLength: 1 }])),
  }) as unknown as JSONSchemaType<Record<K, string>>;

/** A per-IP bucket's key: an IP address in the spelling the hosts use, never a key no client could have. */
function clientIpKey(key: string, category: string): string {
  const ip = canonicalIp(key);
  if (ip === undefined) throw new ApiError(400, `body /key must be a client IP address for the ${category} bucket, not ${JSON.stringify(key.slice(0, 100))}`);
  return ip;
}

export type Scenarios = ReturnType<typeof createScenarios>;

/** Named shortcuts to the states of the spec that are slow or fiddly to reach by playing. */
export function createScenarios(context: ControlContext) {
  const { store, options } = context;
  const pendingCode = (email: string, now: number) => {
    const pending = store.pendingCodes.get(normalizeEmail(email), now);
    if (pending === undefined) throw new ApiError(404, `No pending code for ${email}`);
    return pending;
  };
  const list: Scenario<Record<string, string>>[] = [
    {
      name: 'rate-limited',
      summary: "{category, key}: fill that bucket (key: a client IP, or for read and gameplay a player's id or email), so the next counted request answers 429",
      parameters: stringParameters('category', 'key'),
      apply: ({ category, key }, now) => {
        if (!(category! in RATE_LIMITS)) throw new ApiError(400, `body /category must be one of ${Object.keys(RATE_LIMITS).join(', ')}`);
        const { limit, scope } = RATE_LIMITS[category as RateLimitCategory];
        const bucketKey = scope === 'player' ? findPlayer(context, key!).id : clientIpKey(key!, category!);
        const bucket = fillBucket(store, { config: options, variants: context.variants.current }, category as RateLimitCategory, bucketKey, now);
        return { category, key: bucketKey, count: limit, limit, remaining: 0, resetAt: new Date(bucket.windowEnd).toISOString() };
      },
    },
    {
      name: 'code-expired',
      summary: '{email}: expire the pending code now, as if 15 minutes had passed',
      parameters: stringParameters('email'),
      apply: ({ email }, now) => {
        const pending = pendingCode(email!, now);
        pending.message.expiresAt = now;
        store.pendingCodes.delete(pending.message.email);
        return { email: pending.message.email };
      },
    },
    {
      name: 'code-voided',
      summary: '{email}: void the pending code as after too many wrong attempts (verify answers 429)',
      parameters: stringParameters('email'),
      apply: ({ email }, now) => {
        const pending = pendingCode(email!, now);
        voidCode(pending);
        return { email: pending.message.email };
      },
    },
    {
      name: 'token-expired',
      summary: '{token}: expire a bearer token now, as if 7 days had passed',
      parameters: stringParameters('token'),
      apply: ({ token }, now) => {
        if (store.tokens.get(token!, now) === undefined) throw new ApiError(404, 'No such live token');
        store.tokens.delete(token!);
        return { token };
      },
    },
    {
      name: 'no-action-points',
      summary: '{player} (id or email): spend every action point; the refill interval restarts now',
      parameters: stringParameters('player'),
      apply: ({ player }, now) => {
        const found = findPlayer(context, player!);
        found.actionPoints = { points: 0, accruedAt: now };
        return { player: controlPlayerView(context, found, now) };
      },
    },
    {
      name: 'fighter-encounter',
      summary: '{player} (id or email): start a fighter encounter, so gameplay answers 409',
      parameters: stringParameters('player'),
      apply: ({ player }, now) => {
        const found = findPlayer(context, player!);
        found.inEncounter = true;
        return { player: controlPlayerView(context, found, now) };
      },
    },
    {
      name: 'unverified-player',
      summary: '{email}: a player whose email is not verified, with a token (ship creation answers 403)',
      parameters: stringParameters('email'),
      apply: ({ email }, now) => {
        const seeded = seedPlayer(store, options, { email: email!, emailVerified: false }, now);
        return { player: controlPlayerView(context, findPlayer(context, seeded.id), now), authToken: seeded.authToken, expiresAt: seeded.expiresAt };
      },
    },
    ...faultScenarios(context),
  ];
  return list.map((scenario) => ({ ...scenario, parse: validator(scenario.parameters, 'body') }));
}

export function scenarioRoutes(available: Scenarios): ControlRoute[] {
  return [
    declaredRoute('scenarios', () => ({
      scenarios: available.map(({ name, summary, parameters }) => ({ name, summary, parameters: Object.keys(parameters.properties ?? {}) })),
    })),
    declaredRoute(
      'applyScenario',
      ({ request, now, params }) => {
        const scenario = available.find((candidate) => candidate.name === params['name']);
        if (scenario === undefined) throw new ApiError(404, `No scenario ${params['name']}; GET ${CONTROL_ROUTES.scenarios.pattern} lists them`);
        return { scenario: scenario.name, ...scenario.apply(scenario.parse(readOptionalJsonObject(request)), now) };
      },
      { body: { anyOf: available.map(({ name, parameters }) => ({ title: name, ...parameters })) } },
    ),
  ];
}
