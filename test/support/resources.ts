import { Agent } from 'undici';
import { afterEach } from 'vitest';
import { startTestServer, type TestServer, type TestServerOptions } from './server.js';

/**
 * Servers and undici agents opened by a test file, all closed after each test, so that a failing
 * test cannot leave a socket or a listening port behind for the next one.
 */
export function useResources() {
  const open: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((item) => item.close()));
  });
  return {
    async server(options: TestServerOptions = {}): Promise<TestServer> {
      const server = await startTestServer(options);
      open.push(server);
      return server;
    },
    /**
     * An agent whose connections leave from `localAddress` (any 127.x.y.z works on loopback).
     * It is the Client-level option: undici 8 overrides `connect.localAddress` with it (null by default).
     */
    agent(localAddress?: string): Agent {
      const agent = new Agent(localAddress === undefined ? {} : { localAddress });
      open.push(agent);
      return agent;
    },
  };
}
