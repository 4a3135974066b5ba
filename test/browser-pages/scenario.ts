import { MINE_ROUTE, OBSERVED_HEADERS, SCENARIO_EMAIL, type ScenarioRun, type StepResult } from './scenario-config.js';

/** Where the page gets the code the mock delivered: from the test in Node, or from the worker's control in the page. */
export type ReadOtp = (email: string) => Promise<string>;

interface Call {
  step: string;
  method: string;
  path: string;
  json?: unknown;
  token?: string;
}

/** One fetch as a game client makes it; JSON bodies and bearer tokens make the browser send a preflight first. */
async function send(apiUrl: string, call: Call): Promise<StepResult> {
  const headers: Record<string, string> = {};
  if (call.json !== undefined) headers['Content-Type'] = 'application/json';
  if (call.token !== undefined) headers['Authorization'] = `Bearer ${call.token}`;
  const init: RequestInit = { method: call.method, headers, ...(call.json === undefined ? {} : { body: JSON.stringify(call.json) }) };
  // A refused preflight surfaces only as "Failed to fetch": name the step so that the test says which one.
  const response = await fetch(`${apiUrl}${call.path}`, init).catch((error: unknown) => {
    throw new Error(`${call.step}: ${call.method} ${apiUrl}${call.path} failed: ${String(error)}`);
  });
  const readable = Object.fromEntries(OBSERVED_HEADERS.map((name) => [name, response.headers.get(name)]));
  return {
    step: call.step,
    method: call.method,
    path: call.path,
    status: response.status,
    body: await response.json(),
    headers: readable as StepResult['headers'],
  };
}

/** Sign in, read the player, create a ship, then spend the one action point and be refused the next action. */
export async function runScenario(apiUrl: string, readOtp: ReadOtp): Promise<ScenarioRun> {
  const steps: StepResult[] = [];
  const run = async (call: Call) => {
    const result = await send(apiUrl, call);
    steps.push(result);
    return result;
  };
  await run({ step: 'register', method: 'POST', path: '/api/auth/register', json: { email: SCENARIO_EMAIL } });
  const otp = await readOtp(SCENARIO_EMAIL);
  const verified = await run({ step: 'verify', method: 'POST', path: '/api/auth/verify-email', json: { email: SCENARIO_EMAIL, otp } });
  const token = (verified.body as { authToken?: string }).authToken ?? 'missing-token';
  await run({ step: 'read player', method: 'GET', path: '/api/player', token });
  await run({ step: 'create ship', method: 'POST', path: '/api/player/ship', token, json: { name: 'Nomad' } });
  await run({ step: 'mine', method: MINE_ROUTE.method, path: MINE_ROUTE.path, token, json: {} });
  await run({ step: 'mine again', method: MINE_ROUTE.method, path: MINE_ROUTE.path, token, json: {} });
  const result = { origin: location.origin, steps };
  renderResults(result);
  return result;
}

function cell(row: HTMLTableRowElement, text: string, tag: 'td' | 'th' = 'td'): void {
  const element = document.createElement(tag);
  element.textContent = text;
  row.append(element);
}

/** The results as a table a person can read in the screenshot. */
function renderResults(run: ScenarioRun): void {
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const title of ['step', 'request', 'status', ...OBSERVED_HEADERS, 'body']) cell(head, title, 'th');
  for (const step of run.steps) {
    const row = table.insertRow();
    cell(row, step.step);
    cell(row, `${step.method} ${step.path}`);
    cell(row, String(step.status));
    for (const name of OBSERVED_HEADERS) cell(row, step.headers[name] ?? '—');
    const body = JSON.stringify(step.body);
    cell(row, body.length > 90 ? `${body.slice(0, 90)}…` : body);
  }
  document.querySelector('#results')?.replaceChildren(table);
  document.querySelector('#state')!.textContent = `Done: ${run.steps.length} requests from ${run.origin}`;
}
