import { readOptionalJsonObject } from '../body.js';
import { ApiError } from '../errors.js';
import { assertActionAllowed, performAction } from '../player.js';
import { playerView, shipView } from '../player-view.js';
import type { RequestContext } from '../request-context.js';
import type { Player } from '../store.js';
import { AnswerChooser } from './answer-choice.js';
import { GENERALISED_HEADER } from './generalised-answers.js';
import type { CompiledAnswer, CompiledUserRoute } from './compile-routes.js';
import { handlerContext } from './handler-context.js';
import { StagedRouteState } from './route-state.js';
import { StagedResources } from './staged-resources.js';
import type { TemplateScope } from './template.js';
import { isRouteStatus, RouteReply } from './user-route.js';

function queryRecord(query: string | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (query === undefined || query === '') return record;
  for (const [name, value] of new URLSearchParams(query)) if (!Object.hasOwn(record, name)) record[name] = value;
  return record;
}

/** A status from a template, which may read what the client sent: never a 500 for what it gives. */
function statusOf(value: unknown, id: string): number {
  const status = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
  if (typeof status !== 'number' || !isRouteStatus(status)) {
    throw new ApiError(400, `${id}: its status template gave ${JSON.stringify(value) ?? 'nothing'}, not an HTTP status from 200 to 599`);
  }
  return status;
}

/** An answer's refusal: its whole `body`, or `{error}` with the fields of its `response`. */
function refusal(route: CompiledUserRoute, answer: CompiledAnswer, status: number, scope: TemplateScope, headers: RouteReply['headers']): RouteReply {
  if (answer.body !== undefined) return new RouteReply(status, answer.body(scope), headers);
  return new RouteReply(status, { error: `${route.id} answered ${status}`, ...(answer.response!(scope) as Record<string, unknown>) }, headers);
}

/**
 * The answer of a user's route: a template route (its own answer, or the one of its `answers` the request chooses) or
 * a handler. For a gameplay route, 409 and 403 come before it runs; with a success status, its state and fields are
 * checked against their bounds, its points spent and its writes kept, in that order, so that a refusal at any step
 * keeps nothing.
 */
export function answerUserRoute(route: CompiledUserRoute): (context: RequestContext, player: Player | undefined) => RouteReply | Promise<RouteReply> {
  const { category, definition } = route;
  const action = { id: route.id, encounter: definition.encounter };
  const chooser = new AnswerChooser(route);
  return (context, player) => {
    const { request, now } = context;
    const pointRules = context.config.actionPoints;
    if (category === 'gameplay') assertActionAllowed(context, player!, action);
    const state = new StagedRouteState(player);
    const resources = new StagedResources(player);
    const views = () => ({
      player: player === undefined ? undefined : playerView(player, pointRules, now),
      ship: player?.ship ? shipView(player.ship) : undefined,
      state: state.all(),
    });
    const scope: TemplateScope = {
      params: route.path.match(request.path) ?? {},
      query: queryRecord(request.query),
      body: readOptionalJsonObject(request),
      ...views(),
      now: new Date(now).toISOString(),
      counter: undefined,
    };
    const keep = (extraPoints: number): void => {
      state.assertWithinBound();
      resources.assertWithinBound();
      if (category === 'gameplay') performAction(context, player!, action, extraPoints);
      state.commit();
      resources.commit();
    };
    if (definition.handler !== undefined) {
      const call = handlerContext(route, request, scope, state, resources, (extra) => assertActionAllowed(context, player!, action, extra));
      const settle = (value: unknown): RouteReply => {
        const { status, fields, extraPoints } = call.outcome(value);
        if (status >= 400) return new RouteReply(status, { error: `${route.id} answered ${status}`, ...fields });
        keep(extraPoints);
        return new RouteReply(status, { ...fields, success: true });
      };
      const result = definition.handler(call.context);
      return result instanceof Promise ? result.then(settle) : settle(result);
    }
    const chosen = chooser.choose(scope, player, context.caller.ip, definition.strictAnswers ?? context.config.strictAnswers);
    const { answer, generalisedFrom } = chosen;
    const headers = generalisedFrom === undefined ? undefined : { [GENERALISED_HEADER]: generalisedFrom };
    const status = statusOf(answer.status(scope), route.id);
    if (status >= 400) {
      chosen.served();
      return refusal(route, answer, status, scope, headers);
    }
    if (answer.state !== undefined) {
      for (const [key, value] of Object.entries(answer.state(scope) as Record<string, unknown>)) state.set(key, value);
    }
    if (answer.ship !== undefined || answer.player !== undefined) {
      // The fields written read the points as this answer leaves them.
      const cost = category === 'gameplay' ? (context.config.actionCosts[route.id] ?? 0) : 0;
      const { player: view } = views();
      const writing = {
        ...scope,
        state: state.all(),
        player: view === undefined ? undefined : { ...view, actionPoints: (view['actionPoints'] as number) - cost },
      };
      if (answer.ship !== undefined) resources.update('ship', answer.ship(writing) as Record<string, unknown>);
      if (answer.player !== undefined) resources.update('player', answer.player(writing) as Record<string, unknown>);
    }
    keep(0);
    chosen.served();
    // The answer reads what it wrote and the points left after its spend.
    const after = { ...scope, ...views() };
    // A generalised answer's objects of the id the request sent take what the recording knows of that id.
    const known = (value: unknown) => (chosen.sentValues === undefined ? value : route.known.fill(value, chosen.sentValues));
    if (answer.body !== undefined) return new RouteReply(status, known(answer.body(after)), headers);
    return new RouteReply(status, { ...(known(answer.response!(after)) as Record<string, unknown>), success: true }, headers);
  };
}
