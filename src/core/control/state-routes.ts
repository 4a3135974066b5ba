import type { JSONSchemaType } from 'ajv';
import { readJsonObject, readOptionalJsonObject } from '../body.js';
import { normalizeEmail } from '../email.js';
import { ApiError } from '../errors.js';
import { queryParameter, type ServiceRequest } from '../http.js';
import { journalView, type JournalEntry } from '../journal.js';
import { observedState } from '../outbox.js';
import { validator } from '../validation.js';
import { loadWorld } from '../world.js';
import { parseWorld } from '../world-schema.js';
import type { ControlContext, ControlRoute } from './control-route.js';
import { pageBody, pageQuery, SCAN_BUDGET } from './listing.js';

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

/** The journal entries a query's `method`, `path`, `status` and `ip` select (all when it names none). */
function journalFilter(request: ServiceRequest): (entry: JournalEntry) => boolean {
  const [method, path, status, ip] = ['method', 'path', 'status', 'ip'].map((name) => queryParameter(request, name));
  if (status !== undefined && !/^\d{3}$/.test(status)) throw new ApiError(400, 'query status must be a 3-digit HTTP status');
  return (entry) =>
    (method === undefined || entry.method === method)
    && (path === undefined || entry.path === path)
    && (status === undefined || entry.status === Number(status))
    && (ip === undefined || entry.ip === ip);
}

/** Outbox, journal, worlds and reset: reading and clearing what the mock remembers. */
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
      summary: '?email=&limit=&cursor=: delivered codes, newest first, with issue and expiry times and state; nextCursor goes on',
      handle: ({ request, now }) => {
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
    },
    {
      method: 'GET',
      pattern: '/__mock/journal',
      summary: '?method=&path=&status=&ip=&limit=&cursor=: the last requests (method, path, status, category), newest first; nextCursor goes on',
      handle: ({ request }) => {
        const accept = journalFilter(request);
        const { limit, cursor } = pageQuery(request);
        const page = context.journal.page(cursor, limit, SCAN_BUDGET, accept);
        return pageBody('entries', page.items.map(journalView), page.next);
      },
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
