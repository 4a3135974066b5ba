import type { Capabilities } from './target-config.js';
import { type AddressScheme, addressesOnTarget, addressPattern, removeRegistered } from './registered-players.js';
import { restoreBuckets } from './restore-buckets.js';
import { counted } from '../common/counted.js';
import { ControlRefusal, RunControl } from './run-control.js';
import { RUN_HEADER } from './run-header.js';
import type { RunStop } from '../common/run-stop.js';

/** What a run did to leave the target as it found it, and what it could not take away. */
export interface TargetAftermath {
  /** What was put back or removed, as a clause; undefined when there was nothing to do. */
  restored: string | undefined;
  /** What the run leaves on the target; undefined when it leaves nothing. */
  left: string | undefined;
}

/** The line a run ends with: that the target is as the run found it, or what the run put back and what it leaves. */
export function describeAftermath({ restored, left }: Partial<TargetAftermath>): string | undefined {
  if (left !== undefined) return `${restored === undefined ? '' : `Put back on the target: ${restored}.\n`}Left on the target: ${left}.`;
  return restored === undefined ? undefined : `Left the target as the run found it: ${restored}.`;
}

/** Takes the run's requests (those of its header) out of the target's journal: what was done, or what is left. */
async function removeRunRequests(control: RunControl, seed: number): Promise<{ done?: string; left?: string }> {
  try {
    const { removed } = await control.call('removeJournal', `?header=${encodeURIComponent(`${RUN_HEADER}:${seed}`)}`);
    if (removed === 0) return {};
    return { done: `the run's ${counted(removed, 'request')} ${removed === 1 ? 'is' : 'are'} out of the journal (--keep-journal keeps them)` };
  } catch (error) {
    if (!(error instanceof ControlRefusal)) throw error;
    return { left: `the run's requests in the journal: the target's control API cannot take them out (${error.message})` };
  }
}

/** What a process ended at once would leave on the target: everything the run may have changed so far. */
function describeUnrestored(capabilities: Capabilities | null, clock: { nowMs: number; frozen: boolean } | undefined, scheme: AddressScheme): string {
  const players = `the players and codes of the addresses the run registered (${addressPattern(scheme)})`;
  if (clock === undefined) return players;
  const was = `${new Date(clock.nowMs).toISOString()}, ${clock.frozen ? 'frozen' : 'running'}`;
  return `the clock as the run moved it (it was at ${was}), ${players}${capabilities?.buckets === true ? ', and the buckets the run filled' : ''}`;
}

/**
 * What a run changes of a target, noted before it starts: with a control API, the clock (time and frozen state),
 * the buckets and the addresses of the run's pattern that already have players. The function it answers is
 * called at the end with the addresses the run registered: it puts the clock back where it was, moved on by the
 * real time elapsed if it was running, empties every bucket the run filled and sets back those it found and
 * changed, and removes the players and codes
 * made for those addresses and for any other address of the run's pattern the target holds now (a check an
 * interrupt cut short never reported its own), so that a developer's mock, and the players and tokens made on it
 * before the run, are as before; it takes the run's requests out of the journal unless `keepJournal`. It answers
 * what it did, and what it could not undo. While the target is changed,
 * `stop` can say what a process ended at once would leave.
 */
export async function preserveTargetState(
  baseUrl: string,
  capabilities: Capabilities | null,
  scheme: AddressScheme,
  stop?: RunStop,
  keepJournal = false,
): Promise<(registered: ReadonlySet<string>) => Promise<TargetAftermath>> {
  const control = capabilities === null ? undefined : new RunControl(baseUrl);
  const askedAt = Date.now();
  const clock = capabilities?.clockControl === true ? await control!.call('clock') : undefined;
  // When the target read its clock, as closely as this side can tell: halfway through the round trip.
  const readAt = (askedAt + Date.now()) / 2;
  const before = clock !== undefined && capabilities?.buckets === true ? await control!.buckets() : undefined;
  const playersControl = capabilities?.players === true ? control : undefined;
  const addressesBefore = playersControl === undefined ? new Set<string>() : await addressesOnTarget(playersControl, scheme);
  stop?.whilePending(() => describeUnrestored(capabilities, clock, scheme));
  let restoring: Promise<TargetAftermath> | undefined;
  const restore = async (registered: ReadonlySet<string>): Promise<TargetAftermath> => {
    try {
      const done: string[] = [];
      if (clock !== undefined) {
        const nowMs = Math.round(clock.nowMs + (clock.frozen ? 0 : Date.now() - readAt));
        await control!.call('setClock', '', { set: new Date(nowMs).toISOString(), frozen: clock.frozen });
        done.push(`the target's clock is back at ${new Date(nowMs).toISOString()}${clock.frozen ? ', frozen' : ''}`);
      }
      const found = playersControl === undefined ? [] : [...(await addressesOnTarget(playersControl, scheme))].filter((email) => !addressesBefore.has(email));
      const removal = await removeRegistered(playersControl, new Set([...registered, ...found]), scheme);
      if (removal.removed !== undefined) done.push(removal.removed);
      const buckets = before === undefined ? undefined : await restoreBuckets(control!, before);
      if (buckets?.done !== undefined) done.push(buckets.done);
      const journal = control === undefined || keepJournal ? undefined : await removeRunRequests(control, scheme.seed);
      if (journal?.done !== undefined) done.push(journal.done);
      const left = [removal.left, buckets?.left, journal?.left].filter((each) => each !== undefined).join('; ') || undefined;
      stop?.whilePending(() => left);
      return { restored: done.length === 0 ? undefined : done.join('; '), left };
    } finally {
      await control?.close();
    }
  };
  // Once only: an interrupt and the run's own end may both ask for it. A target that stops answering midway is
  // said to be left as the run may have changed it, rather than ending the run without its reports.
  const restoreOrSay = (registered: ReadonlySet<string>) =>
    restore(registered).catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      return { restored: undefined, left: `${describeUnrestored(capabilities, clock, scheme)}: putting them back failed (${why})` };
    });
  return (registered) => (restoring ??= restoreOrSay(registered));
}
