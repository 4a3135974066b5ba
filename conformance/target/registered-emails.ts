import { CONTROL_ROUTES } from '../../src/spec/control-routes.js';
import { specRoute } from '../../src/spec/routes.js';
import type { Call } from './call.js';
import { isObject } from '../common/exchange.js';

const REGISTER_PATH = specRoute('register').path;
const SCENARIO_PREFIX = CONTROL_ROUTES.applyScenario.pattern.replace(':name', '');

/**
 * The address a call made a player or a code for, once the target took it: a registration, or the control
 * API's player creation or scenario given an `email`. The run removes what these made when it ends.
 */
export function registeredEmail(call: Call, status: number): string | undefined {
  if (status < 200 || status > 299 || call.method.toUpperCase() !== 'POST') return undefined;
  const email = isObject(call.json) ? call.json['email'] : undefined;
  if (typeof email !== 'string') return undefined;
  const path = call.path.split('?')[0]!;
  return path === REGISTER_PATH || path === CONTROL_ROUTES.createPlayer.pattern || path.startsWith(SCENARIO_PREFIX) ? email : undefined;
}
