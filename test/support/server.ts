import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../src/core/clock.js';
import type { OtpDelivery } from '../../src/core/options.js';
import { createService, type Service } from '../../src/core/service.js';
import { createNodeServer, type NodeHostOptions } from '../../src/hosts/node-http.js';

/** A fixed start time, so that windows and expiries are predictable (2030-01-01T00:00:00Z). */
export const START_MS = Date.UTC(2030, 0, 1);

export interface TestServer {
  server: Server;
  service: Service;
  clock: ManualClock;
  /** Every code the service delivered, oldest first. */
  otps: OtpDelivery[];
  port: number;
  url: string;
  close(): Promise<void>;
}

export interface TestServerOptions extends NodeHostOptions {
  gameOrigins?: readonly string[];
  corsOrigins?: readonly string[];
}

/** The real node:http host over a service with a manual clock, on a free port of 127.0.0.1. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const clock = new ManualClock(START_MS);
  const otps: OtpDelivery[] = [];
  const service = createService({
    version: '0.1.0',
    clock,
    gameOrigins: options.gameOrigins ?? [],
    ...(options.corsOrigins === undefined ? {} : { corsOrigins: options.corsOrigins }),
    onOtp: (delivery) => otps.push(delivery),
  });
  const server = createNodeServer(service, options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { server, service, clock, otps, port, url: `http://127.0.0.1:${port}`, close };
}

/** The code most recently delivered to `email`; fails loudly when none was. */
export function lastOtpFor(otps: readonly OtpDelivery[], email: string): string {
  const delivery = otps.findLast((item) => item.email === email);
  if (delivery === undefined) throw new Error(`no OTP was delivered to ${email}`);
  return delivery.code;
}
