import { act, control } from './control-client.js';
import { byId, copyButton, h } from './dom.js';
import { followJournal } from './journal-feed.js';
import {
  showBuckets,
  showClock,
  showFaults,
  showOutbox,
  showPlayers,
  tickCountdowns,
  type BucketView,
  type ClockState,
  type FaultRule,
  type OutboxMessage,
  type PlayerView,
} from './views.js';
import { showScenarios } from './scenario-forms.js';
import { showRoutes, type RouteView } from './routes-view.js';

/** Every panel is read again this often, and at once after an action or a request in the journal. */
const REFRESH_MS = 2_000;

/** The mock's clock as last read, and when: a running clock is extrapolated between reads. */
let clock: { state: ClockState; readAt: number } | undefined;
const virtualNow = () => (clock === undefined ? Date.now() : clock.state.nowMs + (clock.state.frozen ? 0 : performance.now() - clock.readAt));

async function refresh(): Promise<void> {
  const [clockState, outbox, players, buckets, faults] = await Promise.all([
    control<ClockState>('GET', '/clock'),
    control<{ messages: OutboxMessage[] }>('GET', '/outbox?limit=20'),
    control<{ players: PlayerView[] }>('GET', '/players?limit=50'),
    control<{ buckets: BucketView[] }>('GET', '/buckets?limit=100'),
    control<{ faults: FaultRule[] }>('GET', '/faults'),
  ]);
  clock = { state: clockState, readAt: performance.now() };
  showClock(clockState);
  showOutbox(outbox.messages);
  showPlayers(players.players);
  showBuckets(buckets.buckets, virtualNow);
  showFaults(faults.faults, (id) => void act(`removed fault ${id}`, () => control('DELETE', `/faults/${encodeURIComponent(id)}`), refreshSoon));
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
      () => void act(`clock ${button.textContent}`, () => control('POST', '/clock', { advanceMs: Number(button.dataset['advance']) }), refreshSoon),
    );
  }
  onClick('clock-freeze', 'clock', () => control('POST', '/clock', { frozen: clock?.state.frozen !== true }));
  onSubmit('clock-set', 'clock set', (form) => control('POST', '/clock', { set: field(form, 'set').value.trim() }));
  onClick('reset', 'reset', () => control('POST', '/reset'));
  onClick('buckets-clear', 'buckets emptied', () => control('DELETE', '/buckets'));
  onClick('faults-clear', 'faults removed', () => control('DELETE', '/faults'));
  onSubmit('fault-form', 'fault added', (form) => control('POST', '/faults', { text: field(form, 'text').value.trim() }));
  onSubmit('player-form', 'player created', async (form) => {
    const email = field(form, 'email').value.trim();
    const created = await control<{ authToken: string }>('POST', '/players', { email, emailVerified: field(form, 'verified').checked });
    byId('player-token').replaceChildren(
      `Bearer token of ${email}: `,
      h('code', {}, created.authToken),
      copyButton(created.authToken, `the token of ${email}`),
    );
    return created;
  });
}

async function start(): Promise<void> {
  wireControls();
  const capabilities = await control<{ version: string }>('GET', '/capabilities');
  byId('version').textContent = capabilities.version;
  showRoutes((await control<{ routes: RouteView[] }>('GET', '/routes')).routes);
  await showScenarios((name, parameters) => act(`scenario ${name}`, () => control('POST', `/scenarios/${name}`, parameters), refreshSoon));
  followJournal(refreshSoon);
  await refresh();
  setInterval(() => void refresh().catch(() => {}), REFRESH_MS);
  // Countdowns move every second; a window that ends is read again, so that its bucket goes.
  setInterval(() => tickCountdowns(virtualNow()) && refreshSoon(), 1_000);
}

void start();
