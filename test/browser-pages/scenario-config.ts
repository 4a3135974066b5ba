import type { UserRoute } from '../../src/core/user-routes/user-route.js';

/** What both browser pages and the mocks behind them share, so that their answers can be compared. */

/** The frozen instant both mocks run at (2030-01-01T00:00:00Z): windows, expiries and refills then match. */
export const SCENARIO_START_MS = Date.UTC(2030, 0, 1);

export const SCENARIO_EMAIL = 'pilot@example.com';

/** A gameplay action costing one point, so that a player with one point can reach zero and be refused. */
export const MINE_ROUTE: UserRoute = { method: 'POST', path: '/api/mine', category: 'gameplay', cost: 1 };

export const SCENARIO_ACTION_POINTS = { start: 1 } as const;

/** The spec's headers a game client's script reads, in the order the results table shows them. */
export const OBSERVED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-ActionPoints-Remaining',
  'X-ActionPoints-NextRefill',
] as const;

export type ObservedHeader = (typeof OBSERVED_HEADERS)[number];

/** One call as the page's script saw it: what a browser game client can actually read. */
export interface StepResult {
  step: string;
  method: string;
  path: string;
  status: number;
  body: unknown;
  /** null where the header is absent or CORS hides it from the script. */
  headers: Record<ObservedHeader, string | null>;
}

export interface ScenarioRun {
  /** The page's own origin, which the mock must list as a game origin. */
  origin: string;
  steps: StepResult[];
}

/** What the test hands the page: where the API is. */
export interface ScenarioInput {
  apiUrl: string;
}

declare global {
  interface Window {
    /** Set by each page's script; the test calls it through page.evaluate. */
    runScenario(input: ScenarioInput): Promise<ScenarioRun>;
    /** Exposed by the test to the standalone page: the code read through the control API in Node. */
    readOtpFromTest(email: string): Promise<string>;
  }
}
