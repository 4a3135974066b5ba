import { CONTROL_ROUTES } from '../../src/spec/control-routes.js';
import { counted } from '../common/counted.js';
import { ControlRefusal, type RunControl } from './run-control.js';

/** Addresses one removal names: its query stays far below any server's limit on a request line. */
const REMOVAL_BATCH = 50;

/** How the run makes up its addresses (players.ts): the template, `{id}` holding the seed between dashes. */
export interface AddressScheme {
  emailTemplate: string;
  seed: number;
}

/** What became of the players and codes the run made: what was removed, and what is left (undefined: nothing). */
export interface Removal {
  removed: string | undefined;
  left: string | undefined;
}

/** Whether `email` is one the run's template makes with its seed (players.ts), whatever made it. */
function fitsScheme(email: string, { emailTemplate, seed }: AddressScheme): boolean {
  const [prefix = '', suffix = ''] = emailTemplate.split('{id}');
  return email.length >= prefix.length + suffix.length && email.startsWith(prefix) && email.endsWith(suffix) && email.includes(`-${seed}-`, prefix.length);
}

/** The pattern of the run's addresses, as a person searches for them: `conformance+*-42-*@example.com`. */
export function addressPattern({ emailTemplate, seed }: AddressScheme): string {
  const [prefix = '', suffix = ''] = emailTemplate.split('{id}');
  return `${prefix}*-${seed}-*${suffix}`;
}

/** The run's addresses as a person can find them: the template's pattern, and any address outside it by name. */
export function describeAddresses(emails: ReadonlySet<string>, scheme: AddressScheme): string {
  const others = [...emails].filter((email) => !fitsScheme(email, scheme));
  const all = others.length === emails.size ? others.join(', ') : [addressPattern(scheme), ...others].join(', ');
  return `the ${counted(emails.size, 'address', 'addresses')} the run registered (${all})`;
}

/**
 * The addresses of the run's pattern that the target holds a player or a code for. A run stopped in the middle
 * of a check (an interrupt ends its worker) cannot say what that check registered: the target can.
 */
export async function addressesOnTarget(control: RunControl, scheme: AddressScheme): Promise<Set<string>> {
  const [players, outbox] = await Promise.all([control.players(), control.outbox()]);
  const emails = [...players.map((player) => player.email), ...outbox.map((message) => message.email)];
  return new Set(emails.filter((email) => fitsScheme(email, scheme)));
}

/**
 * Removes the players and codes the run made for `emails` through the control API's removal route, then reads
 * the outbox to be sure none of their codes is still there (a target that keeps its outbox in a store may keep
 * them). Without a control API that offers players, it says what the run leaves.
 */
export async function removeRegistered(control: RunControl | undefined, emails: ReadonlySet<string>, scheme: AddressScheme): Promise<Removal> {
  if (emails.size === 0) return { removed: undefined, left: undefined };
  const addresses = describeAddresses(emails, scheme);
  const leaves = (why: string) => ({ removed: undefined, left: `whatever the target made for ${addresses} (players and codes): ${why}` });
  if (control === undefined) return leaves('it has no control API to remove them');
  const removed = { players: 0, tokens: 0, messages: 0 };
  const batches = [...emails];
  try {
    for (let start = 0; start < batches.length; start += REMOVAL_BATCH) {
      const query = new URLSearchParams(batches.slice(start, start + REMOVAL_BATCH).map((email) => ['email', email]));
      const answer = await control.call('removePlayers', `?${query}`);
      removed.players += answer.removed.players;
      removed.tokens += answer.removed.tokens;
      removed.messages += answer.removed.messages;
    }
  } catch (error) {
    if (!(error instanceof ControlRefusal)) throw error;
    const { method, pattern } = CONTROL_ROUTES.removePlayers;
    return leaves(`its control API answered ${method} ${pattern} with ${error.status}`);
  }
  const lowered = new Set(batches.map((email) => email.toLowerCase()));
  const kept = (await control.outbox()).filter((message) => lowered.has(message.email.toLowerCase())).length;
  // A target that keeps its outbox in a store may list again what it removed: only what is gone counts as removed.
  const counts = `${counted(removed.players, 'player')}, ${counted(removed.tokens, 'token')}, ${counted(Math.max(0, removed.messages - kept), 'code')}`;
  return {
    removed: `the players, tokens and codes of ${addresses} are removed (${counts})`,
    left: kept === 0 ? undefined : `${counted(kept, 'code')} sent to ${addresses}, which the target's outbox still lists after their removal`,
  };
}
