import type { ControlAnswer, JsonControlRouteKey } from '../src/spec/control-responses.js';
import { CONTROL_ROUTES } from '../src/spec/control-routes.js';
import { byId } from './dom.js';

export class ControlError extends Error {}

export interface ControlCall {
  /** The path with its parameters filled in (controlPath), for the routes that have some. */
  path?: string;
  query?: Readonly<Record<string, string | number>>;
  body?: unknown;
}

/** One call of a declared route of the mock that serves this page: its answer, or a ControlError with the mock's message. */
export async function control<K extends JsonControlRouteKey>(key: K, call: ControlCall = {}): Promise<ControlAnswer<K>> {
  const { method, pattern } = CONTROL_ROUTES[key];
  const query = call.query === undefined ? '' : `?${new URLSearchParams(Object.entries(call.query).map(([name, value]) => [name, String(value)]))}`;
  const path = `${call.path ?? pattern}${query}`;
  const response = await fetch(path, {
    method,
    ...(call.body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(call.body) }),
  });
  const answer = (await response.json()) as ControlAnswer<K> & { error?: string };
  if (!response.ok) throw new ControlError(`${method} ${path}: ${answer.error ?? response.status}`);
  return answer;
}

/** Shows what the last action did, or why it failed. */
export function report(text: string, failed = false): void {
  const status = byId('status');
  status.textContent = text;
  status.title = text;
  status.classList.toggle('error', failed);
}

/** Runs an action of a button or form: its outcome goes to the status line, then `after` (a refresh) runs. */
export async function act(label: string, action: () => Promise<unknown>, after: () => unknown): Promise<void> {
  try {
    const answer = await action();
    report(`${label}: ${JSON.stringify(answer)}`);
  } catch (error) {
    report(error instanceof Error ? error.message : String(error), true);
  } finally {
    await after();
  }
}
