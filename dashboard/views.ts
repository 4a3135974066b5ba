import type { ClockState, ControlPlayer, FaultRuleView, OutboxMessage, RateLimitBucket } from '../src/spec/control-schemas.js';
import { CONTROL_ROUTES, controlPath } from '../src/spec/control-routes.js';
import { byId, copyButton, duration, fillRows, h, longValueCell, row, timeOfDay } from './dom.js';

export function showClock(clock: ClockState): void {
  byId('clock-now').textContent = clock.now.replace('T', ' ').replace('Z', ' UTC');
  byId('clock-state').textContent = clock.frozen ? 'frozen' : 'running';
  byId('clock-freeze').textContent = clock.frozen ? 'Unfreeze' : 'Freeze';
}

export function showOutbox(messages: readonly OutboxMessage[]): void {
  const rows = messages.map((message) =>
    row(
      { 'data-email': message.email },
      longValueCell(message.email, `the address ${message.email}`),
      h('td', { class: 'code' }, h('span', {}, message.code), copyButton(message.code, `the code for ${message.email}`)),
      h('td', { class: `state-${message.state}` }, message.state),
      h('td', { title: message.expiresAt }, timeOfDay(message.expiresAt)),
    ),
  );
  fillRows(byId('outbox'), rows, 'No code delivered yet: register an email through the API.');
}

export function showPlayers(players: readonly ControlPlayer[]): void {
  const rows = players.map((player) =>
    row(
      { 'data-email': player.email },
      longValueCell(player.email, `the address ${player.email}`),
      player.emailVerified ? 'yes' : 'no',
      `${player.actionPoints}/${player.maxActionPoints}`,
      player.ship === null ? '—' : h('td', { class: 'ship' }, h('span', { class: 'truncate', title: player.ship.name }, player.ship.name)),
      player.inEncounter ? 'yes' : 'no',
    ),
  );
  fillRows(byId('players'), rows, 'No players: create one above, or sign in through the API.');
}

/** The buckets with their countdowns against the mock's clock; `virtualNow` moves on between refreshes. */
export function showBuckets(buckets: readonly RateLimitBucket[], virtualNow: () => number): void {
  const rows = buckets.map((bucket) => {
    const countdown = h('td', { class: 'mono countdown', 'data-reset-at': String(Date.parse(bucket.resetAt)) });
    return row(
      { 'data-category': bucket.category, 'data-key': bucket.key },
      bucket.category,
      h('td', { class: 'mono' }, bucket.key),
      `${bucket.count}/${bucket.limit}`,
      countdown,
    );
  });
  fillRows(byId('buckets'), rows, 'No live buckets: every window has ended.');
  tickCountdowns(virtualNow());
}

/** Rewrites each countdown; answers whether a window has ended since the last refresh. */
export function tickCountdowns(now: number): boolean {
  let ended = false;
  for (const cell of document.querySelectorAll<HTMLElement>('#buckets .countdown')) {
    const left = Number(cell.dataset['resetAt']) - now;
    ended ||= left <= 0;
    cell.textContent = left > 0 ? duration(left) : 'reset';
    cell.classList.toggle('reset-due', left <= 0);
  }
  return ended;
}

export function showFaults(rules: readonly FaultRuleView[], remove: (id: string) => void): void {
  const items = rules.map((rule) => {
    const button = h('button', { type: 'button', title: `${CONTROL_ROUTES.removeFault.method} ${controlPath('removeFault', { id: rule.id })}` }, 'Remove');
    button.addEventListener('click', () => remove(rule.id));
    return h('li', { 'data-id': rule.id }, h('code', {}, rule.text), ' ', button);
  });
  byId('faults').replaceChildren(...(items.length > 0 ? items : [h('li', { class: 'empty' }, 'No fault rules: every request is answered normally.')]));
}
