// The baseline: raw node:http serving the same /health body and content type as the mock, and nothing else.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { serveForBench } from './serve-for-bench.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

const server = createServer((request, response) => {
  if (request.url !== '/health') {
    response.writeHead(404).end();
    return;
  }
  const json = JSON.stringify({ success: true, status: 'ok', version });
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) }).end(json);
});
serveForBench(server);
