import type { AddressInfo } from 'node:net';
import { createService, type Service } from '../core/service.js';
import { createNodeServer } from '../hosts/node-http.js';
import { CliError } from './cli-error.js';
import { PACKAGE_VERSION } from './package-info.js';

export interface MockOptions {
  port: number;
  host: string;
  gameOrigins: readonly string[];
  trustProxy: boolean;
}

export interface RunningMock {
  /** The base URL clients use, with the port actually bound. */
  url: string;
  service: Service;
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 5_000;

function baseUrl(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

function listenError(error: NodeJS.ErrnoException, options: MockOptions): CliError {
  const where = `${options.host}:${options.port}`;
  const reasons: Record<string, string> = {
    EADDRINUSE: `${where} is already in use; choose another --port, or --port 0 for a free one`,
    EACCES: `no permission to listen on ${where}; choose a --port above 1023`,
    EADDRNOTAVAIL: `${options.host} is not an address of this machine; check --host`,
    ENOTFOUND: `${options.host} does not resolve; check --host`,
  };
  return new CliError('GS_LISTEN', `cannot start the mock: ${reasons[error.code ?? ''] ?? error.message}`);
}

/** Starts the standalone mock: the service on the node:http host. The CLI and library users call this. */
export async function startMock(options: MockOptions): Promise<RunningMock> {
  const service = createService({ version: PACKAGE_VERSION, gameOrigins: options.gameOrigins });
  const server = createNodeServer(service, { trustProxy: options.trustProxy });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, options)));
    server.listen(options.port, options.host, () => resolve());
  });
  const close = () =>
    new Promise<void>((resolve) => {
      const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
    });
  return { url: baseUrl(server.address() as AddressInfo), service, close };
}

/** `game-service mock`: start, say where, and stop cleanly on SIGINT or SIGTERM. */
export async function runMockCommand(options: MockOptions): Promise<void> {
  const mock = await startMock(options);
  console.log(`Game Service mock ${PACKAGE_VERSION} listening on ${mock.url}`);
  console.log(`  game origins: ${options.gameOrigins.length > 0 ? options.gameOrigins.join(', ') : '(none)'}`);
  console.log(`  client IP:    ${options.trustProxy ? 'first X-Forwarded-For hop (--trust-proxy)' : 'TCP peer address'}`);
  console.log('  Verification codes are printed here. Press Ctrl+C to stop.');
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal} received: closing connections and stopping.`);
      void mock.close().then(resolve);
    };
    process.once('SIGINT', stop).once('SIGTERM', stop);
  });
}
