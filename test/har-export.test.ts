import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HarDocument } from '../src/spec/har.js';
import { useCli } from './support/cli.js';
import { useControlServers } from './support/control-server.js';
import { harErrors } from './support/har-validator.js';

/** HAR 1.2 everywhere: what check --har, fuzz --har and GET /__mock/journal.har write opens in devtools. */

const cli = useCli();
const startServer = useControlServers();
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-har-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readHar = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as HarDocument;
const headerValues = (har: HarDocument, name: string) =>
  har.log.entries.flatMap((entry) => entry.request.headers.filter((header) => header.name === name).map((header) => header.value));

describe('--har', () => {
  it('check writes every exchange of its checks, one page per check, the control API marked and bearer tokens masked', async () => {
    const file = join(dir, 'check.har');
    const result = await cli.run(['check', '--only', 'TOKEN-EXPIRY', '--seed', '1', '--har', file], {}, 60_000);
    expect(result.code).toBe(0);
    const har = readHar(file);
    expect(harErrors(har)).toEqual([]);
    expect(har.log.creator.name).toBe('game-service-harness');
    expect(har.log.pages?.map((page) => page.title)).toEqual([expect.stringMatching(/^TOKEN-EXPIRY /)]);
    expect(har.log.entries.some((entry) => entry.request.url.endsWith('/api/player'))).toBe(true);
    expect(har.log.entries.some((entry) => entry.comment?.startsWith('control API') === true)).toBe(true);
    const tokens = headerValues(har, 'authorization');
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(token).toMatch(/^Bearer .{9}…$/);
  });

  it('fuzz writes every exchange of the run, one page per sequence', async () => {
    const file = join(dir, 'fuzz.har');
    const result = await cli.run(['fuzz', '--num-runs', '2', '--max-commands', '5', '--seed', '3', '--har', file], {}, 60_000);
    expect(result.code).toBe(0);
    const har = readHar(file);
    expect(harErrors(har)).toEqual([]);
    expect(har.log.pages?.map((page) => page.title)).toEqual(['sequence 1', 'sequence 2']);
    expect(har.log.entries.filter((entry) => entry.comment === undefined).length).toBeGreaterThan(0);
    for (const token of headerValues(har, 'authorization')) expect(token).toMatch(/^Bearer .{9}…$/);
  });

  it('a file that cannot be written stops the run before it starts', async () => {
    const result = await cli.run(['fuzz', '--har', '/no/such/dir/run.har'], {}, 5_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--har "/no/such/dir/run.har" cannot be written: /no/such/dir is no directory');
  });
});

describe('GET /__mock/journal.har', () => {
  it('lists the requests the journal holds, oldest first, as valid HAR 1.2, and takes its filters', async () => {
    const mock = await startServer();
    await mock.get('/health');
    await mock.post('/api/auth/register', { email: 'pilot@example.com' }, { origin: 'http://game.test' });
    await mock.get('/api/player');

    const all = await mock.get('/__mock/journal.har');
    expect(all.status).toBe(200);
    const har = all.body as HarDocument;
    expect(harErrors(har)).toEqual([]);
    expect(harErrors({ log: { version: '1.2', entries: [] } })).not.toEqual([]);
    expect(har.log.entries.map((entry) => `${entry.request.method} ${new URL(entry.request.url).pathname} ${entry.response.status}`)).toEqual([
      'GET /health 200',
      'POST /api/auth/register 200',
      'GET /api/player 401',
    ]);
    expect(har.log.entries[1]!.request.headers).toEqual(
      expect.arrayContaining([
        { name: 'origin', value: 'http://game.test' },
        { name: 'content-type', value: 'application/json' },
      ]),
    );
    expect(har.log.entries[1]!.request.postData).toEqual({ mimeType: 'application/json', text: '{"email":"pilot@example.com"}' });
    expect(har.log.entries[0]!.request.postData).toBeUndefined();

    const filtered = (await mock.get('/__mock/journal.har?status=4xx')).body as HarDocument;
    expect(filtered.log.entries.map((entry) => entry.request.url)).toEqual([`${mock.url}/api/player`]);
  });
});
