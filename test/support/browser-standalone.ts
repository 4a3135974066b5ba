import { startMock } from '../../src/standalone/mock.js';
import { createTextLogger } from '../../src/standalone/logger.js';
import type { JournalEntry } from '../../src/core/journal.js';
import { MINE_ROUTE, SCENARIO_ACTION_POINTS, SCENARIO_START_MS } from '../browser-pages/scenario-config.js';
import { call } from './http.js';

export interface StandaloneForPage {
  url: string;
  /** The newest code delivered to `email`, read through the control API as a test would. */
  latestOtp(email: string): Promise<string>;
  /** GET /__mock/journal: what the mock answered, preflights included, newest first. */
  journal(): Promise<Array<Omit<JournalEntry, 'atMs'>>>;
  /** What the mock logged (codes, and any unexpected error). */
  log: string[];
  close(): Promise<void>;
}

/** The standalone mock on a free loopback port, serving `pageOrigin` as a game origin, frozen at the scenario's start. */
export async function startStandaloneForPage(pageOrigin: string): Promise<StandaloneForPage> {
  const log: string[] = [];
  const sink = { write: (text: string) => log.push(text) };
  const mock = await startMock({
    port: 0,
    host: '127.0.0.1',
    gameOrigins: [pageOrigin],
    trustProxy: false,
    freezeClock: true,
    actionPoints: SCENARIO_ACTION_POINTS,
    routes: [MINE_ROUTE],
    logger: createTextLogger({ stdout: sink, stderr: sink }),
  });
  const control = async (path: string, json?: unknown) => {
    const answer = await call(`${mock.url}/__mock${path}`, json === undefined ? {} : { json });
    if (answer.status !== 200) throw new Error(`control ${path} answered ${answer.status}: ${answer.text}`);
    return answer.body;
  };
  await control('/clock', { set: new Date(SCENARIO_START_MS).toISOString(), frozen: true });
  return {
    url: mock.url,
    async latestOtp(email) {
      const { messages } = (await control(`/outbox?email=${encodeURIComponent(email)}`)) as { messages: Array<{ code: string }> };
      if (messages[0] === undefined) throw new Error(`the mock delivered no code to ${email}`);
      return messages[0].code;
    },
    journal: async () => ((await control('/journal')) as { entries: Array<Omit<JournalEntry, 'atMs'>> }).entries,
    log,
    close: () => mock.close(),
  };
}
