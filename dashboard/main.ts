import type { ClockState } from '../src/spec/control-schemas.js';
import { controlPath } from '../src/spec/control-routes.js';
import { act, control } from './control-client.js';
import { byId, copyButton, dateAndTime, h } from './dom.js';
import { followJournal } from './journal-feed.js';
import { showBuckets, showClock, showFaults, showOutbox, showPlayers, tickCountdowns } from './views.js';
import { showScenarios } from './scenario-forms.js';
import { showRoutes } from './routes-view.js';

/** Every panel is read again this often, and at once after an action or a request in the journal. */
const REFRESH_MS = 2_000;

/** The mock's clock as last read, and when: a running clock is extrapolated between reads. */
let clock: { state: ClockState; readAt: number } | undefined;
const virtualNow = () => (clock === undefined ? Date.now() : clock.state.nowMs + (clock.state.frozen ? 0 : performance.now() - clock.readAt));

async function refresh(): Promise<void> {
  const [clockState, outbox, players, buckets, faults, routes] = await Promise.all([
    control('clock'),
    control('outbox', { query: { limit: 20 } }),
    control('players', { query: { limit: 50 } }),
    control('buckets', { query: { limit: 100 } }),
    control('faults'),
    control('routes'),
  ]);
  clock = { state: clockState, readAt: performance.now() };
  showClock(clockState);
  showOutbox(outbox.messages);
  showPlayers(players.players);
  showBuckets(buckets.buckets, virtualNow);
  showRoutes(routes.routes);
  showFaults(faults.faults, (id) => void act(`removed fault ${id}`, () => control('removeFault', { path: controlPath('removeFault', { id }) }), refreshSoon));
}

let pending: ReturnType<typeof setTimeout> | undefined;
/** One refresh for a burst of requests. */
function refreshSoon(): void {
  if (pending !== undefined) return;
  pending = setTimeout(() => {
    pending = undefined;
    refresh().catch(() => {});
  }, 100);
}

function onClick(id: string, label: string, action: () => Promise<unknown>): void {
  byId(id).addEventListener('click', () => void act(label, action, refreshSoon));
}

function onSubmit(id: string, label: string, action: (form: HTMLFormElement) => Promise<unknown>): void {
  const form = byId<HTMLFormElement>(id);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void act(label, () => action(form), refreshSoon);
  });
}

const field = (form: HTMLFormElement, name: string) => form.elements.namedItem(name) as HTMLInputElement;

function wireControls(): void {
  for (const button of document.querySelectorAll<HTMLElement>('[data-advance]')) {
    button.addEventListener(
      'click',
      () => void act(`clock ${button.textContent}`, () => control('setClock', { body: { advanceMs: Number(button.dataset['advance']) } }), refreshSoon),
    );
  }
  onClick('clock-freeze', 'clock', () => control('setClock', { body: { frozen: clock?.state.frozen !== true } }));
  onSubmit('clock-set', 'clock set', (form) => control('setClock', { body: { set: field(form, 'set').value.trim() } }));
  onClick('reset', 'reset', () => control('reset'));
  onClick('buckets-clear', 'buckets emptied', () => control('clearBuckets'));
  onClick('faults-clear', 'faults removed', () => control('clearFaults'));
  onSubmit('fault-form', 'fault added', (form) => control('addFault', { body: { text: field(form, 'text').value.trim() } }));
  onSubmit('player-form', 'player created', async (form) => {
    const email = field(form, 'email').value.trim();
    const created = await control('createPlayer', { body: { email, emailVerified: field(form, 'verified').checked } });
    byId('player-token').replaceChildren(
      `Bearer token of ${email}: `,
      h('code', {}, created.authToken),
      copyButton(created.authToken, `the token of ${email}`),
    );
    return created;
  });
}

/** The real time beside the virtual clock, so that the two are never taken for each other. */
function showRealTime(): void {
  byId('real-now').textContent = `${dateAndTime(new Date().toISOString())} UTC`;
}

async function start(): Promise<void> {
  wireControls();
  showRealTime();
  const capabilities = await control('capabilities');
  byId('version').textContent = capabilities.version;
  await showScenarios((name, parameters) =>
    act(`scenario ${name}`, () => control('applyScenario', { path: controlPath('applyScenario', { name }), body: parameters }), refreshSoon),
  );
  followJournal(refreshSoon);
  await refresh();
  setInterval(() => void refresh().catch(() => {}), REFRESH_MS);
  // Countdowns move every second; a window that ends is read again, so that its bucket goes.
  setInterval(() => {
    showRealTime();
    if (tickCountdowns(virtualNow())) refreshSoon();
  }, 1_000);
}

void start();
