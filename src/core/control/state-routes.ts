import type { JSONSchemaType } from 'ajv';
import { RATE_LIMITS, type RateLimitCategory } from '../../spec/limits.js';
import { readJsonObject, readOptionalJsonObject } from '../body.js';
import { normalizeEmail } from '../email.js';
import { ApiError } from '../errors.js';
import { queryParameter } from '../http.js';
import { observedState } from '../outbox.js';
import { validator } from '../validation.js';
import { loadWorld } from '../world.js';
import { parseWorld } from '../world-schema.js';
import type { ControlContext, ControlRoute } from './control-route.js';

export const RESET_PARTS = ['buckets', 'players', 'outbox', 'journal', 'clock'] as const;
type ResetPart = (typeof RESET_PARTS)[number];
const RESET_ORDER: readonly ResetPart[] = ['clock', 'buckets', 'players', 'outbox', 'journal'];

const parseReset = validator<{ parts?: ResetPart[] }>(
  {
    type: 'object',
    additionalProperties: false,
    properties: { parts: { type: 'array', items: { type: 'string', enum: [...RESET_PARTS] }, nullable: true } },
  } satisfies JSONSchemaType<{ parts?: ResetPart[] }>,
  'body',
);

const iso = (ms: number) => new Date(ms).toISOString();

function positiveInteger(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) === 0) throw new ApiError(400, `query ${name} must be a positive integer`);
  return Number(text);
}

function bucketView(bucketKey: string, bucket: { windowEnd: number; count: number }) {
  const separator = bucketKey.indexOf(':');
  const category = bucketKey.slice(0, separator) as RateLimitCategory;
  const { limit } = RATE_LIMITS[category];
  return { category, key: bucketKey.slice(separator + 1), count: bucket.count, limit, remaining: limit - bucket.count, resetAt: iso(bucket.windowEnd) };
}

/** Outbox, buckets, journal, worlds and reset: reading and clearing what the mock remembers. */
export function stateRoutes(context: ControlContext): ControlRoute[] {
  const { store, options } = context;
  const resetters: Record<ResetPart, () => void> = {
    buckets: () => store.buckets.clear(),
    players: () => context.reseedPlayers(),
    outbox: () => {
      store.outbox.clear();
      store.pendingCodes.clear();
    },
    journal: () => context.journal.clear(),
    clock: () => context.clock?.reset(),
  };
  return [
    {
      method: 'GET',
      pattern: '/__mock/outbox',
      summary: '?email=: delivered codes, newest first, with issue and expiry times and state',
      handle: ({ request, now }) => {
        const email = queryParameter(request, 'email');
        const messages = store.outbox.list(email === undefined ? undefined : normalizeEmail(email));
        return {
          messages: messages.map((message) => ({
            email: message.email,
            code: message.code,
            issuedAt: iso(message.issuedAt),
            expiresAt: iso(message.expiresAt),
            state: observedState(message, now),
          })),
        };
      },
    },
    {
      method: 'GET',
      pattern: '/__mock/buckets',
      summary: 'every live rate-limit bucket: category, key (IP or player id), count, limit, remaining, resetAt',
      handle: ({ now }) => ({ buckets: [...store.buckets.entries(now)].map(([key, bucket]) => bucketView(key, bucket)) }),
    },
    {
      method: 'DELETE',
      pattern: '/__mock/buckets',
      summary: '?category=&key=: empty the matching buckets (all without a filter)',
      handle: ({ request, now }) => {
        const category = queryParameter(request, 'category');
        const key = queryParameter(request, 'key');
        if (category !== undefined && !(category in RATE_LIMITS)) {
          throw new ApiError(400, `query category must be one of ${Object.keys(RATE_LIMITS).join(', ')}`);
        }
        const doomed = [...store.buckets.entries(now)]
          .map(([bucketKey, bucket]) => ({ bucketKey, view: bucketView(bucketKey, bucket) }))
          .filter(({ view }) => (category === undefined || view.category === category) && (key === undefined || view.key === key));
        for (const { bucketKey } of doomed) store.buckets.delete(bucketKey);
        return { removed: doomed.length };
      },
    },
    {
      method: 'GET',
      pattern: '/__mock/journal',
      summary: '?limit=: the last requests (method, path, status, category), newest first',
      handle: ({ request }) => ({ entries: context.journal.latest(positiveInteger(queryParameter(request, 'limit'), 'limit')) }),
    },
    {
      method: 'POST',
      pattern: '/__mock/reset',
      summary: `{parts?: [${RESET_PARTS.join(', ')}]}: forget everything, or those parts; players go back to the start world`,
      handle: ({ request }) => {
        const parts = parseReset(readOptionalJsonObject(request)).parts ?? [...RESET_PARTS];
        // The clock first, so that players of the start world are created at the time the mock goes back to.
        for (const part of RESET_ORDER) if (parts.includes(part)) resetters[part]();
        return { reset: parts };
      },
    },
    {
      method: 'POST',
      pattern: '/__mock/world',
      summary: 'a world ({players: [...]}): replace every player and token with its own',
      handle: ({ request, now }) => ({ players: loadWorld(store, options, parseWorld(readJsonObject(request)), now) }),
    },
  ];
}
