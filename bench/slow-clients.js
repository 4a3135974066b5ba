// When the standalone mock cuts a client that sends its headers a byte a second, as users run it (its own process),
// on a quiet machine and on one whose cores are all busy: `--load N` starts N processes that spin beside it. The
// bound: the 408 within 0.5 s of the headers timeout (10 s), however busy the machine.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { parseArgs } from 'node:util';
import { SERVER_LIMITS } from '../dist/src/hosts/node-http.js';

const BOUND_MS = 500;
const { values } = parseArgs({ options: { load: { type: 'string', default: '0' }, clients: { type: 'string', default: '5' } } });
const load = Number(values.load);
const clients = Number(values.clients);
if (!Number.isInteger(load) || load < 0 || !Number.isInteger(clients) || clients < 1) {
  console.error('usage: node bench/slow-clients.js [--load N] [--clients N]   (N a whole number; clients at least 1)');
  process.exit(2);
}

/** The mock as users start it, on a free port: resolves with the port it printed. */
function startMock() {
  const child = spawn(process.execPath, [new URL('../bin/game-service.js', import.meta.url).pathname, 'mock', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let printed = '';
    child.once('exit', (code) => reject(new Error(`the mock exited before listening (code ${code})`)));
    child.stdout.on('data', (chunk) => {
      printed += chunk;
      const port = /http:\/\/127\.0\.0\.1:(\d+)/.exec(printed)?.[1];
      if (port !== undefined) resolve({ child, port: Number(port) });
    });
  });
}

/** A client sending its headers a byte a second: ms from its first byte to the server's answer, and the answer's status line. */
function slowHeaders(port) {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let started = 0;
    const trickle = setInterval(() => socket.writable && socket.write('a'), 1_000);
    socket.once('connect', () => {
      started = performance.now();
      socket.write('GET /health HTTP/1.1\r\nhost: localhost\r\nx-slow: ');
    });
    socket.once('data', (chunk) => {
      clearInterval(trickle);
      resolve({ ms: performance.now() - started, statusLine: chunk.toString('latin1').split('\r\n')[0] });
      socket.destroy();
    });
    socket.once('error', (error) => {
      clearInterval(trickle);
      reject(error);
    });
  });
}

const spinners = Array.from({ length: load }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const { child: mock, port } = await startMock();
try {
  const cuts = await Promise.all(Array.from({ length: clients }, () => slowHeaders(port)));
  const late = cuts.map(({ ms }) => ms - SERVER_LIMITS.headersTimeoutMs);
  const held = cuts.every(({ statusLine }) => statusLine === 'HTTP/1.1 408 Request Timeout') && late.every((ms) => ms >= -50 && ms <= BOUND_MS);
  console.log(`${clients} slow clients, ${load} spinning processes beside the mock:`);
  console.log(`  cut at ${cuts.map(({ ms }) => `${(ms / 1000).toFixed(2)} s`).join(', ')}; ${cuts[0].statusLine}`);
  console.log(`  ${held ? 'HELD' : 'MISSED'}: the 408 within ${BOUND_MS} ms of the ${SERVER_LIMITS.headersTimeoutMs / 1000} s headers timeout`);
  process.exitCode = held ? 0 : 1;
} finally {
  mock.kill();
  for (const spinner of spinners) spinner.kill();
}
