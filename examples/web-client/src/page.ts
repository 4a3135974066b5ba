/** The page's elements, screens, error line and request log (index.html holds the markup). */
import { ApiError, SPEC_HEADERS, type Answer } from './game-api.js';

const SCREENS = ['sign-in', 'verify', 'ship', 'game'] as const;
export type Screen = (typeof SCREENS)[number];

export function element<T extends HTMLElement = HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`index.html has no ${selector}`);
  return found;
}

export function showScreen(screen: Screen): void {
  for (const name of SCREENS) element(`#${name}-screen`).hidden = name !== screen;
}

export function showError(message: string | null): void {
  const line = element('#error');
  line.textContent = message;
  line.hidden = message === null;
}

/** Runs a user action; what the server refused is shown with its message, anything else is a bug and thrown on. */
export async function guarded(action: () => Promise<void>): Promise<void> {
  showError(null);
  try {
    await action();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    showError(error.status === 0 ? error.message : `${error.status}: ${error.message}`);
  }
}

/** Calls `action` with the form's fields on submit, its button disabled meanwhile. */
export function onSubmit(selector: string, action: (fields: FormData) => Promise<void>): void {
  const form = element<HTMLFormElement>(selector);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = form.querySelector('button')!;
    button.disabled = true;
    void guarded(() => action(new FormData(form))).finally(() => (button.disabled = false));
  });
}

export function field(fields: FormData, name: string): string {
  return String(fields.get(name) ?? '').trim();
}

/** Each answer with the spec headers the page could read: what a client developer checks first. */
export function logAnswer(answer: Answer): void {
  const item = document.createElement('li');
  item.append(`${answer.status} ${answer.method} ${answer.path}`);
  for (const name of SPEC_HEADERS.filter((header) => answer.headers[header] !== null)) {
    const header = document.createElement('span');
    header.className = 'header';
    header.textContent = `${name}: ${answer.headers[name]}`;
    item.append(' · ', header);
  }
  item.dataset['answer'] = JSON.stringify({ method: answer.method, path: answer.path, status: answer.status, headers: answer.headers });
  element('#request-log').prepend(item);
}
