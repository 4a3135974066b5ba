import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { StateFile } from '../../src/stores/state-file.js';
import { SCHEMA_VERSION, StateFileError } from '../../src/stores/state-file-schema.js';
import { CoreHarness, START } from '../support/core-harness.js';
import { useTempDir } from '../support/temp-dir.js';

const tempDir = useTempDir('state-file');

/** A service on the state file, with a clock of its own: a process. */
function serviceOn(path: string) {
  const engine = new StateFile(path, 100);
  return { harness: new CoreHarness({ storeEngine: engine }), engine };
}

describe('a state file (--state)', () => {
  it('keeps players, tokens, ships, points, codes, the clock and the outbox across a restart', async () => {
    const path = join(tempDir(), 'mock.db');
    const first = serviceOn(path);
    const token = await first.harness.signIn('pilot@example.com');
    expect((await first.harness.call('POST', '/api/player/ship', { token, body: { name: 'Nomad' } })).status).toBe(200);
    await first.harness.call('POST', '/api/auth/register', { body: { email: 'later@example.com' }, ip: '198.51.100.77' });
    const code = first.harness.lastCode('later@example.com');
    await first.harness.call('POST', '/__mock/clock', { body: { advanceMs: 60_000 } });
    first.engine.close();

    // A new process: a new store on the same file, and a clock that starts from the same instant again.
    const second = serviceOn(path);
    expect(second.harness.clock.now()).toBe(START + 60_000);
    const player = await second.harness.call('GET', '/api/player', { token });
    expect(player.status).toBe(200);
    expect(player.body).toMatchObject({ player: { email: 'pilot@example.com', ship: { name: 'Nomad' }, actionPoints: 60 } });
    const verified = await second.harness.call('POST', '/api/auth/verify-email', { body: { email: 'later@example.com', otp: code }, ip: '198.51.100.77' });
    expect(verified.status).toBe(200);
    const outbox = await second.harness.call('GET', '/__mock/outbox');
    expect((outbox.body as { messages: { email: string; state: string }[] }).messages.map((m) => [m.email, m.state])).toEqual([
      ['later@example.com', 'used'],
      ['pilot@example.com', 'used'],
    ]);
    second.engine.close();
  });

  it('forgets what a reset forgot, and seeds nothing over kept players', async () => {
    const path = join(tempDir(), 'mock.db');
    const first = serviceOn(path);
    const token = await first.harness.signIn('pilot@example.com');
    await first.harness.call('POST', '/__mock/reset', { body: { parts: ['players'] } });
    first.engine.close();
    const second = serviceOn(path);
    expect((await second.harness.call('GET', '/api/player', { token })).status).toBe(401);
    second.engine.close();
  });

  it('migrates an empty SQLite file to the current schema, and refuses a foreign or newer one with a clear message', () => {
    const dir = tempDir();
    const empty = join(dir, 'empty.db');
    new DatabaseSync(empty).close();
    new StateFile(empty, 10).close();
    const migrated = new DatabaseSync(empty);
    expect(migrated.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    migrated.close();

    const foreign = join(dir, 'foreign.db');
    const other = new DatabaseSync(foreign);
    other.exec('CREATE TABLE notes (text TEXT)');
    other.close();
    expect(() => new StateFile(foreign, 10)).toThrow(new StateFileError(foreign, 'is an SQLite database, but not a game-service state file; name a new file'));

    const newer = join(dir, 'newer.db');
    new StateFile(newer, 10).close();
    const future = new DatabaseSync(newer);
    future.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    future.close();
    expect(() => new StateFile(newer, 10)).toThrow(/has schema version 2, written by a newer game-service; this one reads up to version 1/);
  });
});
