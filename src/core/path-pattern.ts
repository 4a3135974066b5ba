/**
 * A path pattern as a person writes one: `*` stands for any run of characters, slashes included
 * (`/api/*`, `*`), `:name` for one segment (`/__mock/players/:email`); anything else is literal.
 */
export function pathPattern(pattern: string): (path: string) => boolean {
  const source = pattern
    .split(/(\*|:[A-Za-z_][A-Za-z0-9_]*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const regex = new RegExp(`^${source}$`);
  return (path) => regex.test(path);
}
