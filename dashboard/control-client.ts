import { byId } from './dom.js';

/** The control API of the mock that serves this page. */
const BASE = '/__mock';

export class ControlError extends Error {}

/** One control call: its JSON answer, or a ControlError with the mock's message. */
export async function control<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${BASE}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new ControlError(`${method} ${BASE}${path}: ${answer.error ?? response.status}`);
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
