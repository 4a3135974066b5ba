import { describe, expect, it } from 'vitest';
import { startMock, useCli } from '../support/cli.js';
import { call } from '../support/http.js';
import { RedisServer } from '../support/redis-server.js';

/** `check` against a mock whose outbox is kept in Redis: what the run can and cannot put back there. */

const cli = useCli();

describe('a check run against a target on Redis', () => {
  it('a target that keeps its outbox in Redis: the run removes its players, and names the codes the outbox still lists', async () => {
    const redis = new RedisServer();
    await redis.start();
    try {
      const { url } = await startMock(cli, ['--port', '0', '--trust-proxy', '--store', redis.url]);
      const result = await cli.run(['check', '--base-url', url, '--forwarded-for', '--only', 'REG-OK .*a new, valid address|VERIFY-OK'], {}, 30_000);
      expect(result.code, `${result.stdout.slice(-3_000)}\n${result.stderr}`).toBe(0);
      expect(result.stdout).toMatch(/Put back on the target: .*are removed \(1 player, 1 token, 0 codes\)/);
      expect(result.stdout).toMatch(
        /Left on the target: 2 codes sent to the 2 addresses the run registered \(conformance\+\*-\d+-\*@example\.com\), which the target's outbox still lists after their removal\./,
      );
      expect((await call(`${url}/__mock/players`)).body).toMatchObject({ players: [] });
    } finally {
      await redis.dispose();
    }
  });
});
