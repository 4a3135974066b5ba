import { UUID } from '../rules/formats.js';

/** A path of the traffic as a mock route's path: its numeric, UUID, email and token segments become `:name` parameters. */
export interface RoutePattern {
  path: string;
  /** Each parameter's name and the decoded segment it stood for, in path order. */
  params: readonly RouteParam[];
}

export interface RouteParam {
  name: string;
  value: string;
}

/** A path segment that is a number: an id. */
export const NUMERIC = /^\d+$/;
const EMAIL = /^[^\s@/]+@[^\s@/]+\.[^\s@/]+$/;
/** The characters the mock accepts in a literal segment of a route's path. */
const LITERAL = /^[A-Za-z0-9\-._~!$&'()*+,;=@%]+$/;
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A path segment decoded, or as sent where it is no valid percent-encoding. */
export function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Numbers and UUIDs are ids; an email or a token in a path is a value that must not be written down either. */
function isParameter(value: string, tokens: ReadonlySet<string>): boolean {
  return NUMERIC.test(value) || UUID.test(value) || EMAIL.test(value) || tokens.has(value);
}

/** `galaxies` → `galaxy`, `star-systems` → `starSystem`: naive, as the names are only a reader's help. */
function singular(segment: string): string {
  const camel = segment.replace(/[-_]+([A-Za-z0-9])/g, (_, letter: string) => letter.toUpperCase());
  if (/ies$/.test(camel)) return `${camel.slice(0, -3)}y`;
  if (/(x|ch|sh|ss)es$/.test(camel)) return camel.slice(0, -2);
  if (/(ss|us|is)$/.test(camel)) return camel;
  return camel.replace(/s$/, '');
}

/** The name of a parameter after `previous` (a literal segment, or none): `{singular}Id`, else `id`, `id2`, … */
function parameterName(previous: string | undefined, taken: ReadonlySet<string>): string {
  const named = previous === undefined || previous === 'api' ? undefined : `${singular(previous)}Id`;
  if (named !== undefined && PARAMETER_NAME.test(named) && !taken.has(named)) return named;
  for (let index = 1; ; index++) {
    const name = index === 1 ? 'id' : `id${index}`;
    if (!taken.has(name)) return name;
  }
}

/**
 * The route path of a path sent (without its query), or why it cannot be one: `/api/galaxy/42/sectors` →
 * `/api/galaxy/:galaxyId/sectors`. `tokens` are the bearer tokens of the traffic, made parameters wherever
 * a path carries one.
 */
export function routePattern(path: string, tokens: ReadonlySet<string>): RoutePattern | string {
  const segments = path.split('/').slice(1);
  const params: RouteParam[] = [];
  const out: string[] = [];
  let previous: string | undefined;
  for (const segment of segments) {
    if (segment === '') return 'its path has an empty segment, which no mock route has';
    const value = decoded(segment);
    if (isParameter(value, tokens)) {
      const name = parameterName(previous, new Set(params.map((param) => param.name)));
      params.push({ name, value });
      out.push(`:${name}`);
      previous = undefined;
      continue;
    }
    if (!LITERAL.test(segment)) return `its path segment ${JSON.stringify(segment)} has characters a mock route's path cannot hold`;
    out.push(segment);
    previous = segment;
  }
  return { path: `/${out.join('/')}`, params };
}
