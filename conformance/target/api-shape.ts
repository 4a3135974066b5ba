import { Agent, request } from 'undici';
import { isErrorEnvelope } from '../rules/envelope.js';
import { endpoint, isObject, parsedJson } from './exchange.js';
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
  return isErrorEnvelope(json) || (isObject(json) && json['success'] === true);
}

const shown = ({ status, text }: Answer) => `${status} ${JSON.stringify(text.length > SHOWN_BODY ? `${text.slice(0, SHOWN_BODY)}…` : text)}`;

/**
 * Why the target does not look like this API, or undefined when it may: its /health answers no Health response,
 * and its register route nothing like an envelope (a register request without email is sent only then).
 */
export async function unlikeThisApi(baseUrl: string): Promise<string | undefined> {
  const agent = new Agent({ connectTimeout: SHAPE_TIMEOUT_MS });
  const send = async (method: 'GET' | 'POST', path: string): Promise<Answer> => {
    const answer = await request(endpoint(baseUrl, path), {
      method,
      dispatcher: agent,
      headersTimeout: SHAPE_TIMEOUT_MS,
      bodyTimeout: SHAPE_TIMEOUT_MS,
      ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
    });
    const text = await answer.body.text();
    return { status: answer.statusCode, text, json: parsedJson(text) };
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
  } finally {
    await agent.close();
  }
}
