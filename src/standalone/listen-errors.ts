import { isIP } from 'node:net';
import { CliError } from './cli-error.js';

/** A host and port as a person types them back: an IPv6 address in brackets (`[::]:8080`, not `:::8080`). */
export function hostAndPort(host: string, port: number | string): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/**
 * Why a command cannot listen, in one sentence with its remedy, the same for every command that listens
 * (`the mock`, `the proxy`): never the system's error code alone.
 */
export function listenError(what: string, error: NodeJS.ErrnoException, host: string, port: number): CliError {
  const where = hostAndPort(host, port);
  const reasons: Record<string, string> = {
    EADDRINUSE: `${where} is already in use; choose another --port, or --port 0 for a free one`,
    EACCES: `no permission to listen on ${where}; choose a --port above 1023`,
    EADDRNOTAVAIL: `${host} is not an address of this machine; check --host`,
    ENOTFOUND: `${host} does not resolve; check --host`,
  };
  return new CliError('GS_LISTEN', `cannot start ${what}: ${reasons[error.code ?? ''] ?? error.message}`);
}
