import { Agent } from 'undici';
import { AnswerError, boundedRequest } from './bounded-answer.js';
import { isErrorEnvelope, isSuccessEnvelope } from '../rules/envelope.js';
import { endpoint, isObject, parsedJson } from '../common/exchange.js';
import { DOTTED_VERSION } from '../rules/formats.js';

const SHAPE_TIMEOUT_MS = 10_000;
const SHOWN_BODY = 120;

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

/** The spec's Health response: status "ok" and a dotted numeric version. */
function isHealthBody(json: unknown): boolean {
  return isObject(json) && json['status'] === 'ok' && typeof json['version'] === 'string' && DOTTED_VERSION.test(json['version']);
}

function isEnvelope(json: unknown): boolean {
  return isErrorEnvelope(json) || isSuccessEnvelope(json);
}

const shown = ({ status, text }: Answer) => `${status} ${JSON.stringify(text.length > SHOWN_BODY ? `${text.slice(0, SHOWN_BODY)}…` : text)}`;

/**
 * Why the target does not look like this API, or undefined when it may: its /health answers no Health response,
 * and its register route nothing like an envelope (a register request without email is sent only then).
 */
export async function unlikeThisApi(
  baseUrl: string,
  requestTimeoutMs = SHAPE_TIMEOUT_MS,
  runHeaders: Record<string, string> = {},
): Promise<string | undefined> {
  const deadlineMs = Math.min(SHAPE_TIMEOUT_MS, requestTimeoutMs);
  const agent = new Agent({ connectTimeout: deadlineMs });
  const send = async (method: 'GET' | 'POST', path: string): Promise<Answer> => {
    const { status, text } = await boundedRequest(
      endpoint(baseUrl, path),
      {
        method,
        dispatcher: agent,
        headers: method === 'POST' ? { ...runHeaders, 'content-type': 'application/json' } : runHeaders,
        ...(method === 'POST' ? { body: '{}' } : {}),
      },
      deadlineMs,
    );
    return { status, text, json: parsedJson(text) };
  };
  try {
    const health = await send('GET', '/health');
    if (isHealthBody(health.json)) return undefined;
    const register = await send('POST', '/api/auth/register');
    if (isEnvelope(register.json)) return undefined;
    return (
      `${baseUrl} does not look like the Game Service API: GET /health answered ${shown(health)}, not {status: "ok", version}, ` +
      `and POST /api/auth/register answered ${shown(register)}, neither {error} nor {success: true}`
    );
  } catch (error) {
    // A target that keeps the run waiting, or sends an endless body, is no more like this API than one that answers wrongly.
    if (error instanceof AnswerError) return `${baseUrl} does not answer like the Game Service API: ${error.message}`;
    throw error;
  } finally {
    await agent.close();
  }
}
