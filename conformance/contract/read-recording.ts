import { readFile } from 'node:fs/promises';
import { Ajv } from 'ajv';
import { RECORDED_SESSION_SCHEMA, type RecordedRequest } from '../../src/spec/recorded-session.js';
import { isObject } from '../common/exchange.js';

const validSession = new Ajv({ strict: false, allErrors: false }).compile<RecordedRequest[]>(RECORDED_SESSION_SCHEMA);

/** A recording `check --recording` cannot use: a usage error (exit 2), found before anything is sent. */
export class RecordingError extends Error {}

/** The session of a recorded config (`proxy --record`), its requests in order. */
export async function readRecording(file: string): Promise<RecordedRequest[]> {
  let config: unknown;
  try {
    config = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new RecordingError(`--recording ${file}: ${error instanceof SyntaxError ? `not JSON (${error.message})` : (error as Error).message}`);
  }
  const session = isObject(config) ? config['session'] : undefined;
  if (session === undefined || session === null)
    throw new RecordingError(
      `--recording ${file} holds no recorded session (its "session" key): record one with game-service proxy --target URL --record ${file}`,
    );
  if (!validSession(session)) {
    const [first] = validSession.errors ?? [];
    throw new RecordingError(`--recording ${file}: session${first?.instancePath ?? ''} ${first?.message ?? 'is not a recorded session'}`);
  }
  if (session.length === 0) throw new RecordingError(`--recording ${file}: its session holds no request`);
  return session;
}
