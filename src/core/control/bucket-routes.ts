import type { JSONSchemaType } from 'ajv';
import { RATE_LIMITS, type RateLimitCategory } from '../../spec/limits.js';
import { readJsonObject } from '../body.js';
import { validator } from '../validation.js';
import type { ListedBucket } from '../bucket-table.js';
import { ApiError } from '../errors.js';
import { queryParameter, type ServiceRequest } from '../http.js';
import { type ControlContext, type ControlRoute, declaredRoute } from './control-route.js';
import { PAGE_QUERY, pageBody, pageQuery, SCAN_BUDGET } from './listing.js';

function bucketView({ category, key, count, windowEnd }: ListedBucket) {
  const { limit } = RATE_LIMITS[category as RateLimitCategory];
  return { category, key, count, limit, remaining: limit - count, resetAt: new Date(windowEnd).toISOString() };
}

interface BucketFilter {
  category: RateLimitCategory | undefined;
  key: string | undefined;
}

function bucketFilter(request: ServiceRequest): BucketFilter {
  const category = queryParameter(request, 'category');
  if (category !== undefined && !(category in RATE_LIMITS)) {
    throw new ApiError(400, `query category must be one of ${Object.keys(RATE_LIMITS).join(', ')}`);
  }
  return { category: category as RateLimitCategory | undefined, key: queryParameter(request, 'key') };
}

interface BucketSetting {
  category: string;
  key: string;
  count: number;
  resetAt: string;
}

const BUCKET_SETTING_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['category', 'key', 'count', 'resetAt'],
  properties: {
    category: { type: 'string', enum: Object.keys(RATE_LIMITS) },
    key: { type: 'string', minLength: 1 },
    count: { type: 'integer', minimum: 0 },
    resetAt: { type: 'string' },
  },
} satisfies JSONSchemaType<BucketSetting>;
const parseBucketSetting = validator<BucketSetting>(BUCKET_SETTING_SCHEMA, 'body');

/** The categories a filter naming a key can match: its buckets are then found directly, without a scan. */
function categoriesOf(filter: BucketFilter): RateLimitCategory[] {
  return filter.category === undefined ? (Object.keys(RATE_LIMITS) as RateLimitCategory[]) : [filter.category];
}

/** Rate-limit buckets: listed page by page, or found by key; emptied by filter. */
export function bucketRoutes({ store }: ControlContext): ControlRoute[] {
  return [
    declaredRoute(
      'buckets',
      ({ request, now }) => {
        const filter = bucketFilter(request);
        const { key } = filter;
        if (key !== undefined) {
          const found = categoriesOf(filter).flatMap((category) => {
            const bucket = store.buckets.get(category, key, now);
            return bucket === undefined ? [] : [bucketView({ category, key, ...bucket })];
          });
          return pageBody('buckets', found, undefined);
        }
        const { limit, cursor } = pageQuery(request);
        const page = store.buckets.scan(now, cursor ?? 0, limit, SCAN_BUDGET, filter.category);
        return pageBody('buckets', page.entries.map(bucketView), page.next);
      },
      { query: ['category', 'key', ...PAGE_QUERY] },
    ),
    declaredRoute(
      'clearBuckets',
      ({ request, now }) => {
        const filter = bucketFilter(request);
        const { key } = filter;
        if (key !== undefined) return { removed: categoriesOf(filter).filter((category) => store.buckets.delete(category, key)).length };
        if (filter.category === undefined) {
          const removed = store.buckets.size;
          store.buckets.clear();
          return { removed };
        }
        const doomed: ListedBucket[] = [];
        for (let cursor: number | undefined = 0; cursor !== undefined; ) {
          const page = store.buckets.scan(now, cursor, Number.POSITIVE_INFINITY, SCAN_BUDGET, filter.category);
          doomed.push(...page.entries);
          cursor = page.next;
        }
        for (const bucket of doomed) store.buckets.delete(bucket.category, bucket.key);
        return { removed: doomed.length };
      },
      { query: ['category', 'key'] },
    ),
    declaredRoute(
      'setBucket',
      ({ request, now }) => {
        const { category, key, count, resetAt } = parseBucketSetting(readJsonObject(request));
        const { limit } = RATE_LIMITS[category as RateLimitCategory];
        if (count > limit) throw new ApiError(400, `body /count must be at most ${limit}, the size of the ${category} bucket`);
        const windowEnd = Date.parse(resetAt);
        if (Number.isNaN(windowEnd) || windowEnd <= now) throw new ApiError(400, "body /resetAt must be an ISO 8601 date-time after the clock's now");
        // A new window, not the live one's: the bucket becomes exactly what was asked.
        store.buckets.delete(category, key);
        const set = store.buckets.fill(category, key, now, windowEnd, count);
        if ('full' in set) throw new ApiError(503, 'The bucket table is full: no room for a new bucket until a window ends');
        return { bucket: bucketView({ category, key, ...set }) };
      },
      { body: BUCKET_SETTING_SCHEMA },
    ),
  ];
}
