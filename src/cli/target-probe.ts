import { request } from 'undici';

/** How long the proxy waits at start for its target's first answer. */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * Whether the proxy's target answers at all, asked once at start (`GET /health`): undefined when it answers
 * (any status), else a sentence saying what every request will meet until it does. The proxy serves all the same.
 */
export async function targetSilence(target: string): Promise<string | undefined> {
  const url = new URL('health', target.endsWith('/') ? target : `${target}/`);
  try {
    const answer = await request(url, { headersTimeout: PROBE_TIMEOUT_MS, bodyTimeout: PROBE_TIMEOUT_MS, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await answer.body.dump();
    return undefined;
  } catch (error) {
    const { code, name, message } = error as { code?: string; name: string; message: string };
    const cause = name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : (code ?? message);
    return `the target ${target} does not answer (${cause}): every request is answered 502 until it does; serving all the same`;
  }
}
