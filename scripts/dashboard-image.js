// Writes docs/images/dashboard.png: the dashboard of a mock started with the demo world, its clock frozen at
// 2030-01-01 09:00 UTC, after a few sign-ins (one at a 40-character address, as a `check` run makes them), reads,
// a refused token and a fault rule, in Debian's Chromium at 1200 px. Run by `npm run docs:images`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const IMAGE = fileURLToPath(new URL('../docs/images/dashboard.png', import.meta.url));

const mock = spawn(process.execPath, ['bin/game-service.js', 'mock', '--port', '0', '--world', 'fixtures/worlds/demo.json'], { cwd: ROOT });
const url = await new Promise((resolve, reject) => {
  let output = '';
  mock.stdout.setEncoding('utf8').on('data', (text) => {
    output += text;
    const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (found) resolve(found[1]);
  });
  mock.once('exit', (code) => reject(new Error(`the mock exited with ${code}: ${output}`)));
});

async function call(method, path, json, headers = {}) {
  const answer = await fetch(`${url}${path}`, {
    method,
    headers: { ...(json === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const body = await answer.json();
  if (answer.status >= 400 && !path.startsWith('/api/')) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(body)}`);
  return body;
}

try {
  await call('POST', '/__mock/clock', { set: '2030-01-01T09:00:00Z', frozen: true });
  await call('POST', '/api/auth/register', { email: 'alice@example.com' });
  await call('POST', '/__mock/clock', { advanceMs: 20_000 });
  await call('POST', '/api/auth/register', { email: 'conformance+verify-1764115200-4f2a@example.com' });
  const { authToken } = await call('POST', '/__mock/players', { email: 'pilot@example.com' });
  for (let read = 0; read < 3; read++) await call('GET', '/api/player', undefined, { authorization: `Bearer ${authToken}` });
  await call('GET', '/api/player', undefined, { authorization: 'Bearer 00000000-0000-0000-0000-000000000000' });
  await call('POST', '/__mock/faults', { kind: 'status', status: 503, method: 'GET', path: '/api/player', probability: 0.2 });

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    await page.goto(`${url}/__mock/ui`);
    // The panels fill from the control API and the journal's stream; the page re-reads them every 2 s.
    await page.waitForTimeout(2_500);
    await page.screenshot({ path: IMAGE, fullPage: true });
    console.log(`wrote ${IMAGE}`);
  } finally {
    await browser.close();
  }
} finally {
  mock.kill();
}
