import type { JSONSchemaType } from 'ajv';
import { RESET_PARTS, type ResetPart } from '../../spec/control-routes.js';
import { readJsonObject, readOptionalJsonObject } from '../body.js';
import { normalizeEmail } from '../email.js';
import { queryParameter } from '../http.js';
import { observedState } from '../outbox.js';
import { validator } from '../validation.js';
import { loadWorld } from '../world.js';
import { parseWorld, worldSchema } from '../world-schema.js';
import { type ControlContext, type ControlRoute, declaredRoute } from './control-route.js';
import { PAGE_QUERY, pageBody, pageQuery, SCAN_BUDGET } from './listing.js';

const RESET_ORDER: readonly ResetPart[] = ['clock', 'buckets', 'players', 'outbox', 'journal'];

const RESET_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { parts: { type: 'array', items: { type: 'string', enum: [...RESET_PARTS] }, nullable: true } },
} satisfies JSONSchemaType<{ parts?: ResetPart[] }>;
const parseReset = validator<{ parts?: ResetPart[] }>(RESET_SCHEMA, 'body');

const iso = (ms: number) => new Date(ms).toISOString();

/** Outbox, worlds and reset: reading and clearing what the mock remembers. */
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
    declaredRoute(
      'outbox',
      ({ request, now }) => {
        const email = queryParameter(request, 'email');
        const wanted = email === undefined ? undefined : normalizeEmail(email);
        const { limit, cursor } = pageQuery(request);
        const page = store.outbox.page(cursor, limit, SCAN_BUDGET, (message) => wanted === undefined || message.email === wanted);
        const messages = page.items.map((message) => ({
          email: message.email,
          code: message.code,
          issuedAt: iso(message.issuedAt),
          expiresAt: iso(message.expiresAt),
          state: observedState(message, now),
        }));
        return pageBody('messages', messages, page.next);
      },
      { query: ['email', ...PAGE_QUERY] },
    ),
    declaredRoute(
      'reset',
      ({ request }) => {
        const parts = parseReset(readOptionalJsonObject(request)).parts ?? [...RESET_PARTS];
        // The clock first, so that players of the start world are created at the time the mock goes back to.
        for (const part of RESET_ORDER) if (parts.includes(part)) resetters[part]();
        return { reset: parts };
      },
      { body: RESET_SCHEMA },
    ),
    declaredRoute('loadWorld', ({ request, now }) => ({ players: loadWorld(store, options, parseWorld(readJsonObject(request)), now) }), {
      body: worldSchema,
    }),
  ];
}
