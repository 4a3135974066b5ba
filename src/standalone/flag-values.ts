import { CliError } from './cli-error.js';
import { ProblemList } from './problems.js';

/** Flag values as typed, from the environment or from a config file, turned into typed values or usage errors. */

/** A number from a config file or a default; a string as typed, where a blank one must not become 0; NaN for anything else. */
export const flagNumber = (value: unknown): number =>
  typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;

export function parsePort(value: unknown): number {
  const port = flagNumber(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliError('GS_USAGE', `--port ${JSON.stringify(value)} is not a port; expected an integer from 0 to 65535 (0 = a free port)`);
  }
  return port;
}

/**
 * A game origin as browsers send it in the Origin header (`scheme://host[:port]`), so that the exact
 * comparison the mock makes can match. A trailing slash is forgiven; a path, query or credentials are not.
 * `subject` names where the value was given.
 */
export function parseGameOrigin(value: string, subject = '--game-origin'): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const isOrigin =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '' &&
    url.username === '' &&
    url.password === '';
  if (!isOrigin) {
    throw new CliError('GS_USAGE', `${subject} ${JSON.stringify(value)} is not an origin; expected scheme://host[:port], e.g. http://localhost:5173`);
  }
  return url.origin;
}

/** Repeated flags, a config array and a comma-separated env value all become one list. */
export function parseOriginList(values: unknown): string[] {
  return parseList(values).map((origin) => parseGameOrigin(origin));
}

/** The parser of the --config file's `key` of origins: every one that is none is named, by the file and key. */
export function fileOrigins(key: string): (value: string | string[], path: string) => string[] {
  return (value, path) => {
    const problems = new ProblemList();
    const origins = parseList(value).flatMap((origin) => {
      try {
        return [parseGameOrigin(origin, `--config ${path}: /${key}`)];
      } catch (error) {
        problems.add(new CliError('GS_CONFIG', (error as Error).message));
        return [];
      }
    });
    problems.throwIfAny();
    return origins;
  };
}

const SWITCH_VALUES: Readonly<Record<string, boolean>> = { true: true, '1': true, yes: true, on: true, false: false, '0': false, no: false, off: false };

/**
 * The value of an on/off flag given in the environment or a config file, `subject` naming where (`--verbose`,
 * `/verbose`). yargs would read anything but "true" as off, so that GAME_SERVICE_TRUST_PROXY=1 silently meant
 * the opposite of what was asked.
 */
export function parseSwitch(value: unknown, subject: string): boolean {
  const parsed = typeof value === 'boolean' ? value : SWITCH_VALUES[String(value).trim().toLowerCase()];
  if (parsed === undefined) {
    throw new CliError('GS_USAGE', `${subject} ${JSON.stringify(value)} is not on or off; expected true or false (or 1/0, yes/no, on/off)`);
  }
  return parsed;
}

/** A count such as --workers: an integer from `minimum` up (a bound of 0 runs would do nothing). */
export function parseCount(flag: string, minimum = 0): (value: unknown) => number {
  return (value) => {
    const count = flagNumber(value);
    if (!Number.isInteger(count) || count < 0) {
      throw new CliError('GS_USAGE', `--${flag} ${JSON.stringify(value)} is not a count; expected an integer from ${minimum} up`);
    }
    if (count < minimum) throw new CliError('GS_USAGE', `--${flag} ${JSON.stringify(value)} must be at least ${minimum}`);
    return count;
  };
}

/** Repeated flags and comma-separated values as one list, blanks dropped. */
export function parseList(values: unknown): string[] {
  const items = (Array.isArray(values) ? values : [values]).flatMap((value) => String(value).split(','));
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** The server to check: an http(s) URL, used as the base of every path. */
export function parseBaseUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CliError('GS_USAGE', `--base-url ${JSON.stringify(value)} is not an http(s) URL, e.g. http://127.0.0.1:8080`);
  }
  return url.toString();
}

/** A `redis://` or `rediss://` URL with a host, an optional port and an optional database number; `subject` names where it was given. */
export function parseStoreUrl(value: string, subject = '--store'): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const valid =
    url !== undefined &&
    (url.protocol === 'redis:' || url.protocol === 'rediss:') &&
    url.hostname !== '' &&
    /^(\/\d*)?$/.test(url.pathname) &&
    url.search === '' &&
    url.hash === '';
  if (!valid)
    throw new CliError('GS_USAGE', `${subject} ${JSON.stringify(value)} is not a Redis URL; expected redis://HOST:PORT[/DB], e.g. redis://127.0.0.1:6379/0`);
  return value;
}
