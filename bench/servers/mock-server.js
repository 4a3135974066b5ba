// The mock under test: the service and node:http host the CLI starts, with codes sent to the parent instead of printed.
// Usage: mock-server.js <game origin> [players to seed]
import { PACKAGE_VERSION } from '../../dist/src/version.js';
import { createService } from '../../dist/src/core/service.js';
import { createNodeServer } from '../../dist/src/hosts/node-http.js';
import { seedPlayers } from '../lib/seeded-players.js';
import { serveForBench } from './serve-for-bench.js';

const [gameOrigin, seeded = '0'] = process.argv.slice(2);
const service = createService({
  version: PACKAGE_VERSION,
  gameOrigins: [gameOrigin],
  onOtp: ({ email, code }) => process.send({ type: 'otp', email, code }),
});
// trustProxy lets the parent register each player from its own X-Forwarded-For address, since the auth
// bucket allows 5 requests per IP per minute; the measured requests send no X-Forwarded-For.
await seedPlayers(service, Number(seeded));
serveForBench(createNodeServer(service, { trustProxy: true }));
