import { controlPath } from '../../spec/control-routes.js';
import { RATE_LIMITS } from '../../spec/limits.js';
import { templatePath } from '../../spec/openapi-control.js';
import type { ExampleAnswer } from '../../spec/openapi-examples.js';
import { MAX_BODY_BYTES } from '../body.js';
import type { ServiceRequest, ServiceResponse } from '../http.js';
import type { CompiledAlternative, CompiledUserRoute } from '../user-routes/compile-routes.js';
import { OTHER_HEALTH_METHODS } from '../../spec/openapi.js';
import { specRoute } from '../../spec/routes.js';

/** A service of the same options made for the examples alone, on memory, its clock frozen: its answers and the codes it sent. */
export interface SampleService {
  handle(request: ServiceRequest): Promise<ServiceResponse>;
  readonly codes: readonly string[];
}

/** Two clients: the second's refusals (bodies over the limit, a code of the wrong form) leave the first's auth bucket its 429 to show. */
const CLIENT = '203.0.113.77';
const SECOND_CLIENT = '203.0.113.78';
const LOOPBACK = '127.0.0.1';
const EMAIL = 'pilot@example.com';
const NO_CONDITIONS: CompiledAlternative['when'] = { params: {}, query: {}, body: {} };
/** Every payload a variant reads: `name`, or `galaxyId` and `shipName`. */
const SHIP_BODY = { name: 'Nomad', galaxyId: 1, shipName: 'Nomad' };
const OVERSIZED = { padding: 'x'.repeat(MAX_BODY_BYTES) };
const encoder = new TextEncoder();
/** The paths of the spec's table, written there alone; the mock's GET of the ship shares createShip's. */
const HEALTH = specRoute('health').path;
const REGISTER = specRoute('register').path;
const VERIFY_EMAIL = specRoute('verifyEmail').path;
const PLAYER = specRoute('getPlayer').path;
const SHIP = specRoute('createShip').path;

interface Sent {
  body?: unknown;
  query?: string;
  token?: string | undefined;
  /** The path as the document writes it, where it has parameters. */
  documented?: string;
  /** A call of the control API, from loopback. */
  control?: boolean;
  ip?: string;
}

type Send = (method: string, path: string, sent?: Sent) => Promise<ServiceResponse>;

/** Sends until the answer is a 429 (a bucket's size and one more at the most). */
async function spend(send: Send, limit: number, ...request: Parameters<Send>): Promise<void> {
  for (let sent = 0; sent <= limit; sent++) if ((await send(...request)).status === 429) return;
}

/** The template routes of the user: a request for each of their `answers` (what chooses it), and one for the route's own answer. */
async function userRouteRequests(send: Send, routes: readonly CompiledUserRoute[], token: string | undefined): Promise<void> {
  for (const route of routes) {
    if (route.definition.handler !== undefined) continue;
    const { method, path } = route.definition;
    const conditions = [...route.answers.map((answer) => answer.when), ...(route.answer === undefined && route.answers.length > 0 ? [] : [NO_CONDITIONS])];
    for (const when of conditions) {
      await send(
        method,
        path.replace(/:([^/]+)/g, (_segment, name: string) => encodeURIComponent(when.params[name] ?? '1')),
        {
          documented: templatePath(path).path,
          token: route.category === 'public' ? undefined : token,
          query: new URLSearchParams(when.query).toString(),
          ...(method === 'GET' ? {} : { body: when.body }),
        },
      );
    }
  }
}

/**
 * The answers of a session on `sample`, each an example for its operation's response of that status: a sign-in with
 * its refusals (a missing email, a disposable one, a wrong code, one of the wrong form, no token, a body over the
 * limit), a ship (and the refusals of a body
 * that is no object, of an unverified player and of one in an encounter), every method of /health, each configured
 * template route (once for each of its `answers`), each bucket spent to its 429, and each control read without
 * parameters. Only a 500 is never shown: the mock answers one for a bug alone.
 */
export async function exampleAnswers(
  sample: SampleService,
  userRoutes: readonly CompiledUserRoute[],
  controlReads: readonly string[],
): Promise<ExampleAnswer[]> {
  const answers: ExampleAnswer[] = [];
  const send: Send = async (method, path, { body, query, token, documented = path, control = controlReads.includes(path), ip = CLIENT } = {}) => {
    const from = control ? LOOPBACK : ip;
    const response = await sample.handle({
      method,
      path,
      ...(query === undefined || query === '' ? {} : { query }),
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
      body: body === undefined ? undefined : encoder.encode(JSON.stringify(body)),
      ip: from,
      peer: from,
    });
    answers.push({ method, path: documented, status: response.status, body: response.body });
    return response;
  };

  await send('GET', HEALTH);
  await send('POST', REGISTER, { body: {} });
  await send('POST', REGISTER, { body: { email: EMAIL } });
  const code = sample.codes.at(-1) ?? '';
  await send('POST', VERIFY_EMAIL, { body: { email: EMAIL, otp: code === '000000' ? '111111' : '000000' } });
  const verified = await send('POST', VERIFY_EMAIL, { body: { email: EMAIL, otp: code } });
  const issued = (verified.body as { authToken?: unknown } | undefined)?.authToken;
  const token = typeof issued === 'string' ? issued : undefined;
  for (const path of [PLAYER, SHIP]) await send('GET', path);
  await send('GET', PLAYER, { token });
  await send('GET', SHIP, { token });
  await send('POST', SHIP, { body: SHIP_BODY });
  await send('POST', SHIP, { token, body: [] });
  await send('POST', SHIP, { token, body: SHIP_BODY });
  await send('GET', SHIP, { token });
  await send('POST', SHIP, { token, body: OVERSIZED });
  for (const path of [REGISTER, VERIFY_EMAIL]) await send('POST', path, { body: OVERSIZED, ip: SECOND_CLIENT });
  await send('POST', VERIFY_EMAIL, { body: { email: EMAIL, otp: '12' }, ip: SECOND_CLIENT });
  await send('POST', REGISTER, { body: { email: 'pilot@mailinator.com' }, ip: SECOND_CLIENT });
  const made = await send('POST', controlPath('createPlayer'), { body: { email: 'rookie@example.com', emailVerified: false }, control: true });
  await send('POST', SHIP, { token: (made.body as { authToken?: string }).authToken, body: SHIP_BODY });
  await send('POST', controlPath('startEncounter', { id: EMAIL }), { control: true });
  await send('POST', SHIP, { token, body: SHIP_BODY });
  await send('DELETE', controlPath('endEncounter', { id: EMAIL }), { control: true });
  for (const method of OTHER_HEALTH_METHODS) await send(method.toUpperCase(), HEALTH);
  await userRouteRequests(send, userRoutes, token);

  await spend(send, RATE_LIMITS.auth.limit, 'POST', REGISTER, { body: { email: 'pilot2@example.com' } });
  await send('POST', VERIFY_EMAIL, { body: { email: EMAIL, otp: code } });
  await spend(send, RATE_LIMITS.public.limit, 'GET', HEALTH);
  for (const method of OTHER_HEALTH_METHODS) await send(method.toUpperCase(), HEALTH);
  await spend(send, RATE_LIMITS.read.limit, 'GET', PLAYER, { token });
  await send('GET', SHIP, { token });
  await spend(send, RATE_LIMITS.gameplay.limit, 'POST', SHIP, { token, body: SHIP_BODY });
  for (const path of controlReads) await send('GET', path);
  return answers;
}
