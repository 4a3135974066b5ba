// Raw node:http answering every request with the answer the mock gave one counted read (its status, headers and
// body, the Date refreshed as Node does): what writing that answer costs, without any of the mock's own work.
import { createServer } from 'node:http';
import { createService } from '../../dist/src/core/service.js';
import { seededToken, seedPlayers } from '../lib/seeded-players.js';
import { serveForBench } from './serve-for-bench.js';

const service = createService({ version: 'bench', onOtp: () => {} });
await seedPlayers(service, 1);
const answer = await service.handle({
  method: 'GET',
  path: '/api/player',
  headers: { host: 'bench', authorization: `Bearer ${seededToken(0)}` },
  ip: '127.0.0.1',
});
const { date: _, ...headers } = answer.headers;
const json = JSON.stringify(answer.body);
const wire = { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) };

serveForBench(createServer((_request, response) => response.writeHead(answer.status, wire).end(json)));
