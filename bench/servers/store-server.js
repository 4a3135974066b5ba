// The mock on one store engine, as `game-service mock` wires it, with codes sent to the parent.
// Usage: store-server.js <game origin> <players to seed> memory | state FILE | redis URL PREFIX
import { PACKAGE_VERSION } from '../../dist/src/version.js';
import { createService } from '../../dist/src/core/service.js';
import { createNodeServer } from '../../dist/src/hosts/node-http.js';
import { openStore } from '../../dist/src/standalone/open-store.js';
import { seedPlayers } from '../lib/seeded-players.js';
import { serveForBench } from './serve-for-bench.js';

const [gameOrigin, seeded, engine, location, prefix] = process.argv.slice(2);
const storeOptions = engine === 'state' ? { state: location } : engine === 'redis' ? { store: location, storePrefix: prefix } : {};
const store = await openStore(storeOptions, { outboxSize: 1_000, journalSize: 500 });
const service = createService({
  version: PACKAGE_VERSION,
  gameOrigins: [gameOrigin],
  ...(store.engine === undefined ? {} : { storeEngine: store.engine }),
  ...(store.onRequest === undefined ? {} : { onRequest: store.onRequest }),
  onOtp: ({ email, code }) => process.send({ type: 'otp', email, code }),
});
await store.started(service);
await seedPlayers(service, Number(seeded), async () => store.engine?.afterRequest());
// trustProxy: the parent registers each player from its own X-Forwarded-For address (5 auth requests per IP a minute).
serveForBench(createNodeServer(service, { trustProxy: true }));
