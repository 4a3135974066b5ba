import { Agent } from 'undici';
import type { Capabilities } from './target-config.js';
import { boundedRequest } from './bounded-answer.js';
import { endpoint, parsedJson } from '../common/exchange.js';
import { CONTROL_ROUTES } from '../../src/spec/control-routes.js';

/** The target cannot be reached: a usage or connection problem (exit 2), not a conformance failure. */
export class TargetUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetUnreachableError';
  }
}

const PROBE_TIMEOUT_MS = 10_000;

/**
 * Reaches the target, then asks it what it offers: a target with a control API (its capabilities route)
 * lets the suite move its clock and read its outbox; any other answer means real time.
 */
export async function probeTarget(baseUrl: string, requestTimeoutMs = PROBE_TIMEOUT_MS): Promise<Capabilities | null> {
  const deadlineMs = Math.min(PROBE_TIMEOUT_MS, requestTimeoutMs);
  const agent = new Agent({ connectTimeout: deadlineMs });
  const get = (path: string) => boundedRequest(endpoint(baseUrl, path), { dispatcher: agent }, deadlineMs);
  try {
    // The control API first: it counts in no bucket, so the run notes the target's buckets before it has sent
    // anything they count (target-state.ts); any answer at all shows the target is reached.
    let answer: Awaited<ReturnType<typeof get>>;
    try {
      answer = await get(CONTROL_ROUTES.capabilities.pattern);
    } catch (error) {
      const cause = (error as { code?: string; message: string }).code ?? (error as Error).message;
      throw new TargetUnreachableError(`cannot reach ${baseUrl}: ${cause}`);
    }
    const body = parsedJson(answer.text) as { capabilities?: Partial<Capabilities> & { scenarios?: string[] }; gameOrigins?: string[] } | undefined;
    if (answer.status !== 200 || typeof body?.capabilities !== 'object') return null;
    const offered = body.capabilities;
    return {
      clockControl: offered.clockControl === true,
      outbox: offered.outbox === true,
      players: offered.players === true,
      buckets: offered.buckets === true,
      scenarios: Array.isArray(offered.scenarios) ? offered.scenarios : [],
      gameOrigins: Array.isArray(body.gameOrigins) ? body.gameOrigins : [],
    };
  } finally {
    await agent.close();
  }
}
