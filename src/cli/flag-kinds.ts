import { parsePort } from '../standalone/flag-values.js';

/**
 * A flag that takes a number. yargs' number type would turn "" into 0 and "abc" into NaN before `parse` saw
 * them: read as the string typed (a string type wins in yargs' parser) yet shown as [number] (a number type
 * wins in --help), the value reaches `parse`, which refuses it quoting what was typed.
 */
export function numberFlag<Parsed>(parse: (value: unknown) => Parsed) {
  return { type: 'string', number: true, requiresArg: true, coerce: parse } as const;
}

/** --port and --host of a command that listens (mock, proxy): `portPurpose` says who connects to the port. */
export function listenFlags(defaults: { port: number; host: string }, portPurpose: string) {
  return {
    port: {
      ...numberFlag(parsePort),
      defaultDescription: String(defaults.port),
      describe: `${portPurpose}; 0 picks a free port (the URL is printed on start)`,
    },
    host: { type: 'string', requiresArg: true, defaultDescription: defaults.host, describe: 'Address to bind; 0.0.0.0 or :: to accept other machines' },
  } as const;
}
