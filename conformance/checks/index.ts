import type { CheckFile } from './check-files.js';
import type { Suite } from '../fixtures/suite.js';
import { actionPointsChecks } from './action-points.check.js';
import { bearerChecks } from './bearer.check.js';
import { envelopesChecks } from './envelopes.check.js';
import { healthChecks } from './health.check.js';
import { rateLimitsExemptChecks } from './rate-limits-exempt.check.js';
import { rateLimitsHeadersChecks } from './rate-limits-headers.check.js';
import { rateLimitsScopeChecks } from './rate-limits-scope.check.js';
import { rateLimitsSpentChecks } from './rate-limits-spent.check.js';
import { rateLimitsWindowResetChecks } from './rate-limits-window-reset.check.js';
import { rateLimitsWindowChecks } from './rate-limits-window.check.js';
import { registerChecks } from './register.check.js';
import { routingChecks } from './routing.check.js';
import { shipChecks } from './ship.check.js';
import { trafficChecks } from './traffic.check.js';
import { verifyChecks } from './verify.check.js';

/** Each check file's checks, declared against the run's Suite. */
export const CHECKS_OF_FILE: Readonly<Record<CheckFile, (suite: Suite) => void>> = {
  'action-points': actionPointsChecks,
  bearer: bearerChecks,
  envelopes: envelopesChecks,
  health: healthChecks,
  'rate-limits-exempt': rateLimitsExemptChecks,
  'rate-limits-headers': rateLimitsHeadersChecks,
  'rate-limits-scope': rateLimitsScopeChecks,
  'rate-limits-spent': rateLimitsSpentChecks,
  'rate-limits-window-reset': rateLimitsWindowResetChecks,
  'rate-limits-window': rateLimitsWindowChecks,
  register: registerChecks,
  routing: routingChecks,
  ship: shipChecks,
  traffic: trafficChecks,
  verify: verifyChecks,
};
