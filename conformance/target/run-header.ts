/**
 * The header every request of a check or fuzz run carries, naming the run by its seed as its addresses do: a
 * target with a control API has the run's entries taken out of its journal by it at the run's end.
 */
export const RUN_HEADER = 'x-game-service-run';

/** The run's header, to send with each request. */
export function runHeader(seed: number): Record<string, string> {
  return { [RUN_HEADER]: String(seed) };
}
