import { afterEach, describe, expect, it, vi } from 'vitest';
import { RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import type { Identity } from '../target/identities.js';
import { Pacer } from '../target/pacing.js';
import { PlayerSupply } from './player-supply.js';

const identity = (label: string) => ({ label }) as Identity;

/** A supply over these addresses whose sign-ins are counted like the target's scheduler counts them. */
function supplyOver(addresses: readonly Identity[], ahead: number) {
  const pacer = new Pacer(undefined, 120);
  const signedInFrom: string[] = [];
  const stopping = new AbortController();
  const supply = new PlayerSupply({
    addresses,
    pacer,
    ahead,
    signal: stopping.signal,
    signIn: async (from) => {
      await pacer.beforeAuth(from);
      await pacer.beforeAuth(from);
      signedInFrom.push(from.label);
      return { email: `player-${signedInFrom.length}@example.com`, token: `token-${signedInFrom.length}`, expiresAt: '' };
    },
  });
  return { supply, signedInFrom, stopping };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('PlayerSupply', () => {
  it('signs players in ahead, two per address per window, spreading them over the sign-in addresses', async () => {
    const { supply, signedInFrom } = supplyOver([identity('a'), identity('b')], 4);
    const players = await supply.take(4, 1);
    expect(players.map((player) => player.token)).toEqual(['token-1', 'token-2', 'token-3', 'token-4']);
    expect([...signedInFrom].sort()).toEqual(['a', 'a', 'b', 'b']);
    await supply.close();
  });

  it('hands back first the players a sequence never used', async () => {
    const { supply } = supplyOver([identity('a'), identity('b')], 2);
    const [first, second] = await supply.take(2, 1);
    supply.giveBack([second!]);
    expect((await supply.take(1, 2)).map((player) => player.token)).toEqual([second!.token]);
    expect(first).toBeDefined();
    await supply.close();
  });

  it('makes a sequence wait, and says until when, only once every sign-in address has spent its auth budget', async () => {
    vi.useFakeTimers();
    const notices = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { supply, stopping } = supplyOver([identity('a')], 4);
    await vi.advanceTimersByTimeAsync(10);
    expect(await supply.take(2, 1)).toHaveLength(2);
    let third: unknown;
    void supply.take(2, 2).then((players) => (third = players));
    await vi.advanceTimersByTimeAsync(10);
    expect(third).toBeUndefined();
    expect(notices.mock.calls.map(([text]) => String(text)).join('')).toMatch(
      /sequence 2: waiting \d+ s, until \d\d:\d\d:\d\d, for players: every sign-in address has spent its auth budget/,
    );
    await vi.advanceTimersByTimeAsync(RATE_LIMIT_WINDOW_MS + 2_000);
    expect(third).toHaveLength(2);
    stopping.abort();
    await supply.close();
  });
});
