const ENGLISH = new Intl.PluralRules('en');

/** A count with its noun in the right number: `1 sequence`, `2 sequences`, `0 addresses`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${ENGLISH.select(count) === 'one' ? singular : plural}`;
}

/**
 * How many a second, as a person reads it: whole numbers from 10 up, one decimal below, and "under 0.1" rather
 * than 0 where something was done (a real-time run spends most of its time waiting for rate-limit windows).
 */
export function perSecond(count: number, durationMs: number, unit: string): string {
  const rate = count / Math.max(durationMs / 1000, 0.001);
  if (count === 0) return `0 ${unit}/s`;
  if (rate < 0.1) return `under 0.1 ${unit}/s`;
  return `${rate < 10 ? rate.toFixed(1) : Math.round(rate)} ${unit}/s`;
}
