/**
 * The check files of a run, in the order the run loads them. Each stands alone: what its checks share with other
 * files is made by whichever check asks first (fixture.ts), so `--only FILE` runs one file with the verdicts it
 * gets in a full run. The order is the plan's, for pacing only, but for the traffic invariants: they judge every
 * response of the run, so they come last.
 *
 * Where one address's auth budget paces the run: the wait for the read bucket rate-limits-window spent passes while
 * verify waits for auth windows, before rate-limits-window-reset watches it; the files that send many unauthenticated
 * requests (bearer first, envelopes, routing) stand apart, between those that wait for auth windows, so that no
 * minute holds more than the public bucket's 60; AP-HEADERS makes the shared second player's first ship before
 * RL-429 spends its gameplay bucket; and the public bucket is spent last, when nothing else needs it.
 */
export const CHECK_FILES = [
  'health',
  'bearer',
  'action-points',
  'register',
  'rate-limits-window',
  'envelopes',
  'verify',
  'rate-limits-window-reset',
  'routing',
  'rate-limits-scope',
  'ship',
  'rate-limits-headers',
  'rate-limits-exempt',
  'rate-limits-spent',
  'traffic',
] as const;

export type CheckFile = (typeof CHECK_FILES)[number];

export function isCheckFile(name: string): name is CheckFile {
  return (CHECK_FILES as readonly string[]).includes(name);
}
