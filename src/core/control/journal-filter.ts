import { JOURNAL_FILTERS } from '../../spec/control-routes.js';
import { FAULT_KINDS } from '../../spec/control-schemas.js';
import { normalizeEmail } from '../email.js';
import { bodyMatcher } from './body-match.js';
import { ApiError } from '../errors.js';
import type { ServiceRequest } from '../http.js';
import type { JournalEntry } from '../journal.js';
import { pathPattern } from '../path-pattern.js';
import type { Store } from '../store.js';

/** A pattern's cost is its length times each path's: bounded, as a count reads the whole journal. */
const MAX_PATTERN_LENGTH = 200;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

type Accept = (entry: JournalEntry) => boolean;

/** A time on the mock's clock: ISO 8601, or epoch milliseconds. */
function time(name: string, text: string): number {
  const ms = /^\d{1,15}$/.test(text) ? Number(text) : ISO_TIME.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw new ApiError(400, `query ${name} must be an ISO 8601 time (2030-01-01T09:00:00Z) or epoch milliseconds`);
  return ms;
}

function statusFilter(text: string): Accept {
  if (/^\d{3}$/.test(text)) return (entry) => entry.status === Number(text);
  if (/^[1-5]xx$/i.test(text)) return (entry) => Math.floor(entry.status / 100) === Number(text[0]);
  throw new ApiError(400, 'query status must be a 3-digit HTTP status, or a class such as 5xx');
}

function faultFilter(text: string): Accept {
  if (text === 'true') return (entry) => entry.fault !== null;
  if (text === 'false') return (entry) => entry.fault === null;
  if ((FAULT_KINDS as readonly string[]).includes(text)) return (entry) => entry.fault?.some((label) => label.startsWith(text)) ?? false;
  throw new ApiError(400, `query fault must be true, false or a kind of fault: ${FAULT_KINDS.join(', ')}`);
}

/** `NAME:VALUE`: a request header of that name (any case) with exactly that value, as the journal keeps it. */
function headerFilter(text: string): Accept {
  const colon = text.indexOf(':');
  if (colon < 1) throw new ApiError(400, 'query header must be NAME:VALUE, e.g. x-request-id:abc123');
  const name = text.slice(0, colon).trim().toLowerCase();
  const value = text.slice(colon + 1).trim();
  // Hosts give names in lower case; an in-process caller may not.
  return (entry) => Object.entries(entry.requestHeaders).some(([given, kept]) => kept === value && given.toLowerCase() === name);
}

/** A player by id, or by email through the store; an email no player has selects nothing. */
function playerFilter(store: Store, text: string): Accept {
  const id = text.includes('@') ? store.playerByEmail(normalizeEmail(text))?.id : text;
  return (entry) => id !== undefined && entry.playerId === id;
}

/**
 * The journal entries a query selects: `method`, `path` (a pattern: `*` any run, `:name` one segment),
 * `status` (503 or 5xx), `ip`, `player` (id or email), `origin`, `from` and `to` (inclusive), `fault` and
 * `bodyMatches` (a JSON subset of the body, or text in it) and `header` (NAME:VALUE).
 * A parameter that is neither a filter nor one of `alsoAllowed` is refused, so that a misspelt filter
 * cannot silently select everything.
 */
export function journalFilter(request: ServiceRequest, store: Store, alsoAllowed: readonly string[] = []): Accept {
  const query = new URLSearchParams(request.query ?? '');
  const checks: Accept[] = [];
  for (const [name, value] of query) {
    switch (name) {
      case 'method':
        checks.push((entry) => entry.method === value.toUpperCase());
        break;
      case 'path': {
        if (value.length > MAX_PATTERN_LENGTH) throw new ApiError(400, `query path must be at most ${MAX_PATTERN_LENGTH} characters`);
        const matches = pathPattern(value);
        checks.push((entry) => matches(entry.path));
        break;
      }
      case 'status':
        checks.push(statusFilter(value));
        break;
      case 'ip':
      case 'origin':
        checks.push((entry) => entry[name] === value);
        break;
      case 'player':
        checks.push(playerFilter(store, value));
        break;
      case 'from': {
        const from = time(name, value);
        checks.push((entry) => entry.atMs >= from);
        break;
      }
      case 'to': {
        const to = time(name, value);
        checks.push((entry) => entry.atMs <= to);
        break;
      }
      case 'fault':
        checks.push(faultFilter(value));
        break;
      case 'bodyMatches': {
        const matches = bodyMatcher(value);
        checks.push((entry) => matches(entry.requestBody));
        break;
      }
      case 'header':
        checks.push(headerFilter(value));
        break;
      default:
        if (!alsoAllowed.includes(name))
          throw new ApiError(400, `query ${name} is not a journal filter; use ${[...JOURNAL_FILTERS, ...alsoAllowed].join(', ')}`);
    }
  }
  return (entry) => checks.every((check) => check(entry));
}
