import { ApiError } from '../errors.js';
import { queryParameter, type ServiceRequest } from '../http.js';

/** Entries a listing returns when the query names no `limit`, and the most it may name. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1_000;
/**
 * Records a filtered listing inspects for one page at most, so that a page costs the same whatever the
 * state holds: a page may then hold fewer entries than `limit`, and `nextCursor` says where to go on.
 */
export const SCAN_BUDGET = 20_000;

export interface PageQuery {
  limit: number;
  /** Where the previous page stopped; undefined for the first page. */
  cursor: number | undefined;
}

function integerParameter(request: ServiceRequest, name: string, min: number, max: number): number | undefined {
  const text = queryParameter(request, name);
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ApiError(400, `query ${name} must be an integer from ${min} to ${max}`);
  }
  return Number(text);
}

/** The query parameters of a page, for a listing's document. */
export const PAGE_QUERY = ['limit', 'cursor'] as const;

/** `?limit=` (1 to MAX_PAGE_SIZE) and `?cursor=` (a `nextCursor` of an earlier page). */
export function pageQuery(request: ServiceRequest): PageQuery {
  return {
    limit: integerParameter(request, 'limit', 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE,
    cursor: integerParameter(request, 'cursor', 0, Number.MAX_SAFE_INTEGER),
  };
}

/** The body of a listing: its entries under `name`, and the cursor of the next page (null after the last). */
export function pageBody<const N extends string, T>(name: N, entries: T[], next: number | undefined): Record<N, T[]> & { nextCursor: string | null } {
  return { [name]: entries, nextCursor: next === undefined ? null : String(next) } as Record<N, T[]> & { nextCursor: string | null };
}
