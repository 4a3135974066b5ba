import { isObject } from '../common/exchange.js';
import { DOTTED_VERSION } from './formats.js';
import { dueOk, judged, type Rule, routeKey } from './rule.js';

const HEALTH_ROUTE: ReadonlySet<string> = new Set(['GET /health']);
const isHealth = (route: string) => HEALTH_ROUTE.has(route);

/** GET /health: open to anyone, and its body. */
export const HEALTH_RULES = [
  {
    id: 'HEALTH-NOAUTH',
    side: 'server',
    quote: 'The health endpoint requires no authentication.',
    sentences: ['EP-HEALTH-NO-AUTH', 'EP-HEALTH', 'ERR-STATUS-200'],
    proxy: 'no 401 or 403 from GET /health',
    routes: HEALTH_ROUTE,
    judge(exchange, knowledge) {
      if (!isHealth(routeKey(exchange, knowledge))) return [];
      const { status } = exchange;
      const refused = status === 401 || status === 403;
      // A check's request without credentials is due the endpoint's answer itself.
      return [
        judged('no-auth', !refused, 'no 401 or 403 from /health', `answered ${status}: the health endpoint requires no authentication`),
        ...(knowledge.shaped === true ? [dueOk(exchange, 'GET /health without credentials')] : []),
      ];
    },
  },
  {
    id: 'HEALTH-BODY',
    side: 'server',
    quote: 'status: The value "ok" when healthy. version: Service version, dotted numeric form <major>.<minor>.<patch>.',
    sentences: ['RES-HEALTH-STATUS', 'RES-HEALTH-VERSION', 'VER-HEALTH', 'EP-HEALTH'],
    proxy: 'status "ok" and a dotted numeric version in a 200 from GET /health',
    routes: HEALTH_ROUTE,
    // A body that is no JSON is BODY-JSON's departure.
    judge(exchange, knowledge) {
      if (!isHealth(routeKey(exchange, knowledge)) || exchange.status !== 200 || exchange.body === undefined) return [];
      const { body } = exchange;
      if (!isObject(body)) return [judged('object', false, 'a JSON object body', `a 200 whose body ${JSON.stringify(body)} is no object`)];
      const { status, version } = body;
      return [
        judged('status-ok', status === 'ok', 'status "ok"', `a 200 whose status is ${JSON.stringify(status)}, not "ok"`),
        judged(
          'dotted-version',
          typeof version === 'string' && DOTTED_VERSION.test(version),
          'version as <major>.<minor>.<patch>',
          `version ${JSON.stringify(version)} is not <major>.<minor>.<patch>`,
        ),
      ];
    },
  },
] as const satisfies readonly Rule[];
