import { afterEach, describe, expect, it, vi } from 'vitest';
import { RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import { IdentityPool } from '../target/identities.js';
import { planAddresses, QuietTracker } from './real-time-pool.js';

const addresses = (count: number) => Array.from({ length: count }, (_, index) => `127.0.0.${index + 2}`);
const pools: IdentityPool[] = [];
function pool(sourceIps: readonly string[], header: string | null = null): IdentityPool {
  const made = new IdentityPool(sourceIps, header);
  pools.push(made);
  return made;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(pools.splice(0).map((made) => made.close()));
});

describe('planAddresses', () => {
  it('sets one address in four apart for sign-ins once a sequence still has its three', () => {
    const plan = planAddresses(pool(addresses(249)), 3);
    expect([plan.signIns.length, plan.sequences.length]).toEqual([62, 187]);
    const small = planAddresses(pool(addresses(4)), 3);
    expect([small.signIns.length, small.sequences.length]).toEqual([1, 3]);
  });

  it('keeps every address for the sequences when none can be spared, and takes a new one each time from a header', () => {
    const plan = planAddresses(pool(addresses(3)), 3);
    expect([plan.signIns.length, plan.sequences.length]).toEqual([0, 3]);
    expect(planAddresses(pool([], 'X-Forwarded-For'), 3)).toEqual({ sequences: 'unlimited', signIns: 'unlimited' });
  });
});

describe('QuietTracker', () => {
  it('hands out the addresses whose windows end first, and waits a window for addresses it never saw used', async () => {
    vi.useFakeTimers();
    const identities = pool(addresses(5));
    const plan = planAddresses(identities, 3);
    const quiet = new QuietTracker(identities, plan);
    const [first, second] = quiet.addresses(2);
    await vi.advanceTimersByTimeAsync(1_000);
    quiet.counted(first!.label);
    expect(quiet.addresses(3).map((identity) => identity.label)).not.toContain(first!.label);
    expect(quiet.used(first!.label)).toBe(true);
    expect(quiet.used(second!.label)).toBe(false);

    let waited = false;
    const waiting = quiet.waitForQuiet(1, [second!], [], new AbortController().signal).then(() => (waited = true));
    await vi.advanceTimersByTimeAsync(RATE_LIMIT_WINDOW_MS);
    expect(waited, 'an address may have sent requests just before the session started').toBe(false);
    await vi.advanceTimersByTimeAsync(3_000);
    await waiting;
    expect(waited).toBe(true);
  });

  it('takes a player no request has counted for as quiet, and one that sent as busy for a window', async () => {
    vi.useFakeTimers();
    const identities = pool(addresses(5));
    const quiet = new QuietTracker(identities, planAddresses(identities, 3));
    await vi.advanceTimersByTimeAsync(RATE_LIMIT_WINDOW_MS + 3_000);
    const [address] = quiet.addresses(1);
    await quiet.waitForQuiet(1, [address!], ['fresh-token'], new AbortController().signal);
    quiet.counted('busy-token');
    let waited = false;
    const waiting = quiet.waitForQuiet(2, [address!], ['busy-token'], new AbortController().signal).then(() => (waited = true));
    await vi.advanceTimersByTimeAsync(RATE_LIMIT_WINDOW_MS);
    expect(waited).toBe(false);
    await vi.advanceTimersByTimeAsync(3_000);
    await waiting;
    expect(waited).toBe(true);
  });
});
