import { readOptionalJsonObject } from '../body.js';
import { ApiError } from '../errors.js';
import { assertActionAllowed, performAction, playerView } from '../player.js';
import type { RequestContext } from '../request-context.js';
import type { Player } from '../store.js';
import type { CompiledUserRoute } from './compile-routes.js';
import { handlerContext } from './handler-context.js';
import { StagedRouteState } from './route-state.js';
import type { TemplateScope } from './template.js';
import { RouteReply } from './user-route.js';

/** What a route answers before it is kept: its status, its body fields, and the points its handler spends. */
interface Outcome {
  status: number;
  fields: Readonly<Record<string, unknown>>;
  extraPoints: number;
}

function queryRecord(query: string | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (query === undefined || query === '') return record;
  for (const [name, value] of new URLSearchParams(query)) if (!Object.hasOwn(record, name)) record[name] = value;
  return record;
}

/** A status from a template, which may read what the client sent: never a 500 for what it gives. */
function statusOf(value: unknown, id: string): number {
  const status = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
    throw new ApiError(400, `${id}: its status template gave ${JSON.stringify(value) ?? 'nothing'}, not an HTTP status from 200 to 599`);
  }
  return status;
}

/**
 * The answer of a user's route: a template route or a handler. For a gameplay route, 409 and 403 come before it
 * runs; with a success status, its state is checked against its bound, its points spent and its state kept, in
 * that order, so that a refusal at any step keeps nothing.
 */
export function answerUserRoute(route: CompiledUserRoute): (context: RequestContext, player: Player | undefined) => RouteReply | Promise<RouteReply> {
  const { category, definition } = route;
  const action = { id: route.id, encounter: definition.encounter };
  return (context, player) => {
    const { request, now } = context;
    const pointRules = context.config.actionPoints;
    if (category === 'gameplay') assertActionAllowed(context, player!, action);
    const state = new StagedRouteState(player);
    const scope: TemplateScope = {
      params: route.path.match(request.path) ?? {},
      query: queryRecord(request.query),
      body: readOptionalJsonObject(request),
      player: player === undefined ? undefined : playerView(player, pointRules, now),
      state: state.all(),
      now: new Date(now).toISOString(),
    };
    const settle = ({ status, fields, extraPoints }: Outcome): RouteReply => {
      if (status >= 400) return new RouteReply(status, { error: `${route.id} answered ${status}`, ...fields });
      state.assertWithinBound();
      if (category === 'gameplay') performAction(context, player!, action, extraPoints);
      state.commit();
      return new RouteReply(status, { ...fields, success: true });
    };
    if (definition.handler !== undefined) {
      const call = handlerContext(route, request, scope, state, (extra) => assertActionAllowed(context, player!, action, extra));
      const result = definition.handler(call.context);
      return result instanceof Promise ? result.then((value: unknown) => settle(call.outcome(value))) : settle(call.outcome(result));
    }
    const status = statusOf(route.status(scope), route.id);
    if (status < 400 && route.state !== undefined) {
      for (const [key, value] of Object.entries(route.state(scope) as Record<string, unknown>)) state.set(key, value);
    }
    const outcome = (): Outcome => {
      const fields = route.response({ ...scope, state: state.all(), player: player === undefined ? undefined : playerView(player, pointRules, now) });
      return { status, fields: fields as Record<string, unknown>, extraPoints: 0 };
    };
    // The response reads the points left after this route's spend: settled first, then evaluated.
    if (status >= 400) return settle(outcome());
    const reply = settle({ status, fields: {}, extraPoints: 0 });
    return new RouteReply(reply.status, { ...outcome().fields, success: true });
  };
}
