const PARAMETER = /^:([A-Za-z_][A-Za-z0-9_]*)$/;
const LITERAL = /^[A-Za-z0-9\-._~!$&'()*+,;=@%]+$/;

/** A route path split into its segments: literal text, or a named parameter. */
export interface RoutePath {
  /** The parameter names, in order. */
  params: readonly string[];
  /** The path with each parameter as `:`, so that `/a/:x` and `/a/:y` are seen to be one path. */
  shape: string;
  /** The parameters of a path sent, decoded; undefined when it is not this route's. */
  match(path: string): Record<string, string> | undefined;
}

/** Why `path` is no route path of the user, or undefined when it is one. */
export function routePathProblem(path: string): string | undefined {
  if (!path.startsWith('/api/')) return `${JSON.stringify(path)} must start with /api/`;
  const segments = path.slice(1).split('/');
  const bad = segments.find((segment) => !PARAMETER.test(segment) && !LITERAL.test(segment));
  if (bad !== undefined) {
    return bad === ''
      ? `${JSON.stringify(path)} has an empty segment`
      : `${JSON.stringify(path)} has the segment ${JSON.stringify(bad)}; a segment is path characters, or :name for a parameter`;
  }
  const names = segments.filter((segment) => PARAMETER.test(segment));
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  return repeated === undefined ? undefined : `${JSON.stringify(path)} names the parameter ${repeated.slice(1)} twice`;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The matcher of a path that routePathProblem accepted; a parameter matches an empty segment only where `emptyParams` says. */
export function routePath(path: string, emptyParams = false): RoutePath {
  const pattern = path.split('/');
  const params = pattern.filter((segment) => PARAMETER.test(segment)).map((segment) => segment.slice(1));
  const shape = pattern.map((segment) => (PARAMETER.test(segment) ? ':' : segment)).join('/');
  return {
    params,
    shape,
    match(sent) {
      const segments = sent.split('/');
      if (segments.length !== pattern.length) return undefined;
      const found: Record<string, string> = {};
      for (const [index, part] of pattern.entries()) {
        const segment = segments[index]!;
        if (!part.startsWith(':')) {
          if (part !== segment) return undefined;
          continue;
        }
        const value = segment === '' && !emptyParams ? undefined : decoded(segment);
        if (value === undefined) return undefined;
        found[part.slice(1)] = value;
      }
      return found;
    },
  };
}
