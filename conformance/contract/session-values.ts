import { ANSWER_PLACEHOLDER, PLAYER_EMAIL_PLACEHOLDER, PLAYER_TOKEN_PLACEHOLDER, type RecordedRequest } from '../../src/spec/recorded-session.js';
import { valueAt } from '../common/answer-shape.js';
import { isObject } from '../common/exchange.js';

/** The run's own values a recorded request is sent with: its player, and what the deployment answered so far. */
export interface RunValues {
  email: string;
  token: string;
  /** The body of each answer so far, by the recorded request's index. */
  answers: ReadonlyMap<number, unknown>;
  /** The indexes of the requests that send what request N sends, N among them. */
  sameRequests(index: number): readonly number[];
}

/** A placeholder the run has no value for: request N's answer held nothing at the pointer. */
export class MissingValue extends Error {}

/** The value a placeholder stands for, or the text itself when it is none. */
function resolved(text: string, values: RunValues): unknown {
  if (text === PLAYER_EMAIL_PLACEHOLDER) return values.email;
  if (text === PLAYER_TOKEN_PLACEHOLDER) return values.token;
  const match = ANSWER_PLACEHOLDER.exec(text);
  if (match === null) return text;
  const index = Number(match[1]);
  // Where state was set up earlier than in the recording, another sending of the same request gave the id: the latest that did.
  const tried = [
    index,
    ...values
      .sameRequests(index)
      .filter((other) => other !== index)
      .toReversed(),
  ];
  for (const each of tried) {
    const value = values.answers.has(each) ? valueAt(values.answers.get(each), match[2]!) : undefined;
    if (typeof value === 'string' || typeof value === 'number') return value;
  }
  throw new MissingValue(`request ${index + 1}'s answer held no id at ${match[2]}`);
}

/** A placeholder in a path or a header: its pointer holds slashes, so it is found whole before the path is read as segments. */
const PATH_PLACEHOLDER = /\{\{[^{}]*\}\}/g;

/** The path and query to send: each placeholder replaced by the run's value, encoded as a segment or query value. */
export function pathToSend(request: RecordedRequest, values: RunValues): string {
  return request.path.replace(PATH_PLACEHOLDER, (placeholder) => encodeURIComponent(String(resolved(placeholder, values))));
}

/** The headers the client set itself, each placeholder replaced by the run's value. */
export function headersToSend(request: RecordedRequest, values: RunValues): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.requestHeaders ?? {}).map(([name, value]) => [
      name,
      value.replace(PATH_PLACEHOLDER, (placeholder) => String(resolved(placeholder, values))),
    ]),
  );
}

/** The body to send: each placeholder value replaced by the run's, its type kept (a number id stays a number). */
export function bodyToSend(body: unknown, values: RunValues): unknown {
  if (typeof body === 'string') return resolved(body, values);
  if (Array.isArray(body)) return body.map((item) => bodyToSend(item, values));
  if (isObject(body)) return Object.fromEntries(Object.entries(body).map(([key, item]) => [key, bodyToSend(item, values)]));
  return body;
}

/** What the request sent under each name a `follows` expression reads: `params.galaxyId`, `query.id`, `body.sectorId`. */
export function sentValues(route: string, path: string, body: unknown): Map<string, unknown> {
  const sent = new Map<string, unknown>();
  const [pathname, query] = path.split('?', 2) as [string, string | undefined];
  const pattern = route.split(' ', 2)[1]?.split('/') ?? [];
  const segments = pathname.split('/');
  for (const [at, segment] of pattern.entries()) if (segment.startsWith(':')) sent.set(`params.${segment.slice(1)}`, decodeURIComponent(segments[at] ?? ''));
  for (const [name, value] of new URLSearchParams(query ?? '')) if (!sent.has(`query.${name}`)) sent.set(`query.${name}`, value);
  if (isObject(body)) for (const [name, value] of Object.entries(body)) sent.set(`body.${name}`, value);
  return sent;
}
