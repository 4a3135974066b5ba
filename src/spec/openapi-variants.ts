import type { HEADERS } from './limits.js';
import type { RouteId } from './routes.js';
import { SPEC_CHOICES } from './variants.js';

type HeaderKey = keyof typeof HEADERS;

/**
 * What the variants a mock plays change in its document: statuses its operations answer, the units its headers
 * carry, the shape of a body, the methods /health takes, and the answers of requests no route has. What a variant
 * changes in behaviour only (where windows start, what a new registration revokes) is in the description.
 */
export interface DocumentedVariants {
  /** Statuses an operation answers beyond its shape's, with why. */
  statuses: Partial<Record<RouteId, Record<number, string>>>;
  /** Sentences that replace a status's note (`''` drops it). */
  notes: Partial<Record<RouteId, Record<number, string>>>;
  /** The unit a header's description names, where a variant chose it, with an example in that unit. */
  headerUnits: Partial<Record<HeaderKey, HeaderUnit>>;
  playerFieldsFlat: boolean;
  /** /health answers `{status, version}` without `success`. */
  healthWithoutSuccess: boolean;
  /** Every JSON body of the API carries a `requestId` too. */
  extraBodyFields: boolean;
  healthAnyMethod: boolean;
  /** An unknown path without a valid token answers 401 (the token is checked before routing). */
  authBeforeRouting: boolean;
  /** `- name: what it does`, one per variant played. */
  described: string[];
}

const DOES = new Map<string, string>(SPEC_CHOICES.flatMap((choice) => choice.variants.map((variant) => [variant.name, variant.does] as const)));

/** A variant that answers a status of its own for a case of a route: `wrong-code-422` → verifyEmail 422. */
const STATUS_VARIANTS: Record<string, { route: RouteId; status: number }> = {
  'wrong-code-401': { route: 'verifyEmail', status: 401 },
  'wrong-code-422': { route: 'verifyEmail', status: 422 },
  'disposable-403': { route: 'register', status: 403 },
  'disposable-422': { route: 'register', status: 422 },
  'unverified-ship-400': { route: 'createShip', status: 400 },
  'unverified-ship-422': { route: 'createShip', status: 422 },
};

/** A header's unit as a variant chose it: the sentence naming it, and an example value in it. */
export interface HeaderUnit {
  description: string;
  example: number;
}

const UNIT_VARIANTS: Record<string, { header: HeaderKey; example: number }> = {
  'reset-epoch-milliseconds': { header: 'rateLimitReset', example: 1_800_000_060_000 },
  'reset-seconds-remaining': { header: 'rateLimitReset', example: 60 },
  'retry-after-milliseconds': { header: 'retryAfter', example: 42_000 },
  'retry-after-minutes': { header: 'retryAfter', example: 1 },
  'nextrefill-in-minutes': { header: 'actionPointsNextRefill', example: 1 },
};

/** Sets `table[route][status]`, making the route's record where it has none. */
function put(table: Partial<Record<RouteId, Record<number, string>>>, route: RouteId, status: number, text: string): void {
  table[route] = { ...table[route], [status]: text };
}

export function documentedVariants(names: readonly string[]): DocumentedVariants {
  const played = new Set(names);
  const documented: DocumentedVariants = {
    statuses: {},
    notes: {},
    headerUnits: {},
    playerFieldsFlat: played.has('player-fields-flat'),
    healthWithoutSuccess: played.has('health-without-success'),
    extraBodyFields: played.has('extra-body-fields'),
    healthAnyMethod: played.has('health-any-method'),
    authBeforeRouting: played.has('auth-before-routing'),
    described: names.map((name) => `- \`${name}\`: ${DOES.get(name) ?? name}`),
  };
  for (const name of names) {
    const does = DOES.get(name) ?? name;
    const status = STATUS_VARIANTS[name];
    if (status !== undefined) put(documented.statuses, status.route, status.status, `This mock answers it ${does} (variant ${name}).`);
    const unit = UNIT_VARIANTS[name];
    if (unit !== undefined) documented.headerUnits[unit.header] = { description: `This mock plays variant ${name}: ${does}.`, example: unit.example };
  }
  // The default's notes name the cases these variants answer with a status of their own.
  if (played.has('wrong-code-401') || played.has('wrong-code-422')) put(documented.notes, 'verifyEmail', 400, '');
  if (played.has('disposable-403') || played.has('disposable-422'))
    put(documented.notes, 'register', 400, 'The mock answers 400 for an invalid email and for a missing or refused challengeToken.');
  if (played.has('unlimited-wrong-codes')) put(documented.notes, 'verifyEmail', 429, '');
  if (played.has('health-without-success')) put(documented.notes, 'health', 200, 'The mock answers `{status, version}` only (variant health-without-success).');
  return documented;
}
