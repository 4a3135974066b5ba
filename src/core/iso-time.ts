const DAY_MS = 86_400_000;
/** From here on, toISOString writes the year in six digits with a sign. */
const FOUR_DIGIT_YEARS_END = Date.UTC(10_000, 0, 1);

let cachedDay = Number.NaN;
let cachedDate = '';

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const threeDigits = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * `new Date(ms).toISOString()`, which costs about 0.35 µs and runs on every read of a player: the date is formatted
 * once a day (the last day asked for is kept), the time of day computed. Other instants are left to toISOString.
 */
export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms < FOUR_DIGIT_YEARS_END && Number.isInteger(ms))) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDate = new Date(day * DAY_MS).toISOString().slice(0, 'YYYY-MM-DDT'.length);
  }
  const inDay = ms - day * DAY_MS;
  const hours = twoDigits(Math.floor(inDay / 3_600_000));
  const minutes = twoDigits(Math.floor(inDay / 60_000) % 60);
  const seconds = twoDigits(Math.floor(inDay / 1000) % 60);
  return `${cachedDate}${hours}:${minutes}:${seconds}.${threeDigits(inDay % 1000)}Z`;
}
