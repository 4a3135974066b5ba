import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { afterEach } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import type { OtpDelivery, ServiceOptions } from '../../src/core/options.js';
import { createService, type Service } from '../../src/core/service.js';
import { createNodeServer } from '../../src/hosts/node-http.js';
import { call, type JsonResponse } from './http.js';

export interface ControlServerOptions {
  /** Service options over the defaults below (version 0.1.0, codes captured, a frozen VirtualClock). */
  service?: Partial<ServiceOptions>;
  trustProxy?: boolean;
  /** Where the frozen VirtualClock starts; ignored when `service.clock` is given. */
  startMs?: number;
  /** The address to listen on and call; 127.0.0.1 by default. */
  host?: string;
}

/** The real node:http host on a free port (of 127.0.0.1 unless `host` says otherwise), over a service whose control API is on. */
export interface ControlServer {
  server: Server;
  service: Service;
  otps: OtpDelivery[];
  url: string;
  agent: Agent;
  /** One request to `${url}${path}` through this server's agent. */
  request(method: Dispatcher.HttpMethod, path: string, json?: unknown, headers?: Record<string, string>): Promise<JsonResponse>;
  get(path: string, headers?: Record<string, string>): Promise<JsonResponse>;
  post(path: string, json?: unknown, headers?: Record<string, string>): Promise<JsonResponse>;
  close(): Promise<void>;
}

export async function startControlServer(options: ControlServerOptions = {}): Promise<ControlServer> {
  const otps: OtpDelivery[] = [];
  const service = createService({
    version: '0.1.0',
    clock: new VirtualClock({ startMs: options.startMs ?? Date.UTC(2030, 0, 1), frozen: true }),
    onOtp: (delivery) => otps.push(delivery),
    ...options.service,
  });
  const server = createNodeServer(service, { trustProxy: options.trustProxy ?? false });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host ?? '127.0.0.1', () => resolve());
  });
  const url = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const agent = new Agent();
  const request: ControlServer['request'] = (method, path, json, headers = {}) =>
    call(`${url}${path}`, { method, headers, dispatcher: agent, ...(json === undefined ? {} : { json }) });
  return {
    server,
    service,
    otps,
    url,
    agent,
    request,
    get: (path, headers) => request('GET', path, undefined, headers),
    post: (path, json, headers) => request('POST', path, json, headers),
    close: async () => {
      await agent.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Control servers opened by a test file, all closed after each test. */
export function useControlServers() {
  const open: ControlServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (options: ControlServerOptions = {}): Promise<ControlServer> => {
    const server = await startControlServer(options);
    open.push(server);
    return server;
  };
}

/** Narrows a JSON body for property access in assertions. */
export function json<T = Record<string, unknown>>(response: JsonResponse): T {
  return response.body as T;
}
