import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMock, useCli } from '../support/cli.js';
import { call } from '../support/http.js';
import { useTempDir } from '../support/temp-dir.js';

const cli = useCli();
const tempDir = useTempDir('state-file-process');

/** Signs in `email` from its own address (the mock trusts X-Forwarded-For here), reading the code from the outbox. */
async function signIn(url: string, email: string, ip: string): Promise<string | undefined> {
  const headers = { 'x-forwarded-for': ip };
  const registered = await call(`${url}/api/auth/register`, { json: { email }, headers });
  if (registered.status !== 200) return undefined;
  const outbox = await call(`${url}/__mock/outbox?email=${encodeURIComponent(email)}`);
  const [message] = (outbox.body as { messages: { code: string }[] }).messages;
  const verified = await call(`${url}/api/auth/verify-email`, { json: { email, otp: message!.code }, headers });
  return verified.status === 200 ? (verified.body as { authToken: string }).authToken : undefined;
}

describe('game-service mock --state FILE, as a process', () => {
  it('loses no sign-in that answered 200 when killed with SIGKILL in the middle of a load', async () => {
    const state = join(tempDir(), 'mock.db');
    // A child process, so that it can be killed.
    const first = await startMock(cli, ['--port', '0', '--trust-proxy', '--state', state], {}, { process: true });
    const tokens: string[] = [];
    let killed = false;
    const client = async (worker: number) => {
      for (let round = 0; !killed; round++) {
        const token = await signIn(first.url, `load-${worker}-${round}@example.com`, `10.0.${worker}.${round % 250}`).catch(() => undefined);
        if (token !== undefined && !killed) tokens.push(token);
      }
    };
    const clients = Array.from({ length: 16 }, (_, worker) => client(worker));
    while (tokens.length < 60) await new Promise((resolve) => setTimeout(resolve, 10));
    first.process.signal('SIGKILL');
    killed = true;
    await first.process.exited;
    await Promise.all(clients);

    const second = await startMock(cli, ['--port', '0', '--trust-proxy', '--state', state]);
    const answers = await Promise.all(
      tokens.map((token, index) =>
        call(`${second.url}/api/player`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': `10.1.0.${index % 250}` } }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(tokens.map(() => 200));
  });

  it('refuses a second process on the same state file, with exit code 2 and the reason', async () => {
    const state = join(tempDir(), 'mock.db');
    await startMock(cli, ['--port', '0', '--state', state]);
    const second = await cli.run(['mock', '--port', '0', '--state', state]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`state file ${state}: is in use by another mock process`);
  });

  it('refuses a state file it cannot open, and --workers above 1 without a shared store, before listening', async () => {
    const unopenable = await cli.run(['mock', '--port', '0', '--state', join(tempDir(), 'missing-dir', 'mock.db')]);
    expect(unopenable.code).toBe(2);
    expect(unopenable.stderr).toMatch(/state file .*missing-dir\/mock\.db: cannot be opened/);
    const memory = await cli.run(['mock', '--port', '0'], { GAME_SERVICE_WORKERS: '2' });
    expect(memory.code).toBe(2);
    expect(memory.stderr).toContain('--workers 2 needs --store redis://HOST:PORT: in-memory state cannot be shared between processes');
    const stateFile = await cli.run(['mock', '--port', '0', '--workers', '2', '--state', join(tempDir(), 'mock.db')]);
    expect(stateFile.code).toBe(2);
    expect(stateFile.stderr).toContain('a state file belongs to one process');
  });
});
