import { HEADERS } from '../src/spec/limits.js';
import { ROUTES } from '../src/spec/routes.js';
import { BODILESS, isErrorEnvelope, isSuccess } from './envelope.js';
import { header, integerHeader, isObject, type Exchange } from './exchange.js';
import type { RuleId } from './rules.js';

/** One response that broke an invariant, and what was expected of it. */
export interface Breach {
  expected: string;
  exchange: Exchange;
}

/** What the run saw of one invariant: how many responses it applied to, and the breaches (the first few kept). */
export interface InvariantReport {
  judged: number;
  breaches: number;
  first: readonly Breach[];
}

const KEPT_BREACHES = 3;
const GAMEPLAY_ROUTES = new Set<string>(ROUTES.filter((route) => route.category === 'gameplay').map((route) => `${route.method} ${route.path}`));
const TABLE_ROUTES = new Set<string>(ROUTES.map((route) => `${route.method} ${route.path}`));
const RATE_LIMIT_HEADERS = [
  ['limit-integer', 'limit-present', HEADERS.rateLimitLimit],
  ['remaining-integer', 'remaining-present', HEADERS.rateLimitRemaining],
  ['reset-integer', 'reset-present', HEADERS.rateLimitReset],
] as const;

/**
 * "Responses to external callers carry these headers": judged on the table's routes, 429s and refusals included;
 * not on a 401 (which bucket a request without a valid token falls in is not shown) nor on a server error.
 */
function mustCarryRateLimitHeaders(method: string, path: string, status: number, external: boolean): boolean {
  return external && TABLE_ROUTES.has(`${method} ${path}`) && status !== 401 && status < 500;
}

/** The invariants that hold for every response, by rule: judged on all traffic of a run, whatever check sent it. */
export const INVARIANT_RULES = {
  'body-json': 'BODY-JSON',
  '429-retry-after': 'RL-429',
  'error-envelope': 'ENV-ERROR',
  'limit-integer': 'RL-LIMIT',
  'remaining-integer': 'RL-REMAINING',
  'reset-integer': 'RL-RESET',
  'limit-present': 'RL-LIMIT',
  'remaining-present': 'RL-REMAINING',
  'reset-present': 'RL-RESET',
  'gameplay-success': 'AP-HEADERS',
  'action-points-integers': 'AP-HEADERS',
} as const satisfies Record<string, RuleId>;

export type InvariantId = keyof typeof INVARIANT_RULES;

/** One invariant applied to one response: whether it held, and what was expected. */
export interface InvariantVerdict {
  id: InvariantId;
  holds: boolean;
  expected: string;
}

/**
 * The invariants that apply to one response and their verdicts: the one judgement of every response's shape,
 * shared by the suite (all traffic of a run) and the proxy (live traffic). `external`: sent without the game
 * origin, by a caller the spec's limits count.
 */
export function judgeInvariants(method: string, path: string, exchange: Exchange, external: boolean): InvariantVerdict[] {
  const verdicts: InvariantVerdict[] = [];
  const judge = (id: InvariantId, holds: boolean, expected: string) => verdicts.push({ id, holds, expected });
  if (!BODILESS.has(exchange.status)) judge('body-json', exchange.body !== undefined, 'a JSON body (every response body is JSON)');
  if (exchange.status === 429) {
    const retryAfter = integerHeader(exchange, HEADERS.retryAfter);
    judge('429-retry-after', retryAfter !== undefined && retryAfter >= 0, 'Retry-After as a non-negative integer on a 429');
  }
  if (exchange.status >= 400 && !BODILESS.has(exchange.status)) {
    judge('error-envelope', isErrorEnvelope(exchange.body), `an error envelope {error: <message string>} on a ${exchange.status}`);
  }
  const mustCarry = mustCarryRateLimitHeaders(method.toUpperCase(), path, exchange.status, external);
  for (const [integerId, presentId, name] of RATE_LIMIT_HEADERS) {
    const present = header(exchange, name) !== undefined;
    if (mustCarry) judge(presentId, present, `${name} on a response to an external caller`);
    if (present) judge(integerId, integerHeader(exchange, name) !== undefined, `${name} as an integer`);
  }
  if (!GAMEPLAY_ROUTES.has(`${method.toUpperCase()} ${path}`)) return verdicts;
  const remaining = integerHeader(exchange, HEADERS.actionPointsRemaining);
  if (isSuccess(exchange)) {
    judge(
      'gameplay-success',
      remaining !== undefined && isObject(exchange.body) && exchange.body['success'] === true,
      `${HEADERS.actionPointsRemaining} (integer) and success: true on a successful gameplay response`,
    );
  }
  if (header(exchange, HEADERS.actionPointsRemaining) !== undefined) {
    const refillOk = remaining !== 0 || integerHeader(exchange, HEADERS.actionPointsNextRefill) !== undefined;
    judge(
      'action-points-integers',
      remaining !== undefined && refillOk,
      `${HEADERS.actionPointsRemaining} as an integer, and ${HEADERS.actionPointsNextRefill} (integer) when it is 0`,
    );
  }
  return verdicts;
}

/** Every response of a run (control API aside), judged against the invariants as it arrives. */
export class TrafficInvariants {
  readonly #reports = new Map<InvariantId, { judged: number; breaches: number; first: Breach[] }>();

  /** `external`: sent without the game origin, by a caller the spec's limits count. */
  record(method: string, path: string, exchange: Exchange, external: boolean): void {
    for (const { id, holds, expected } of judgeInvariants(method, path, exchange, external)) {
      let report = this.#reports.get(id);
      if (report === undefined) {
        report = { judged: 0, breaches: 0, first: [] };
        this.#reports.set(id, report);
      }
      report.judged++;
      if (holds) continue;
      report.breaches++;
      if (report.first.length < KEPT_BREACHES) report.first.push({ expected, exchange });
    }
  }

  report(id: InvariantId): InvariantReport {
    return this.#reports.get(id) ?? { judged: 0, breaches: 0, first: [] };
  }
}
