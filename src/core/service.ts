import { CONTROL_PLAN, planAdmission, type RequestPlan } from './admission-plan.js';
import type { ActiveVariants } from './active-variants.js';
import { type Answer, errorAnswer } from './answer.js';
import { answerApi } from './api-answer.js';
import { type Clock, isControllable, ManualClock } from './clock.js';
import { isControlPath } from '../spec/control-routes.js';
import { createControlApi } from './control/control-api.js';
import type { SampleService } from './control/example-session.js';
import { corsAllows, isPreflight, preflightHeaders } from './cors.js';
import { ApiError } from './errors.js';
import { createFaultInjector, waitForLatency } from './fault-injection.js';
import { type FaultInjector, NO_FAULTS } from './faults.js';
import { headerValue, type ServiceRequest, type ServiceResponse } from './http.js';
import { httpDate } from './http-date.js';
import { Journal, type JournalEntry, journalPath } from './journal.js';
import { keptRequest } from './journal-request.js';
import { keptBy, type StatefulPart } from './kept-handle.js';
import { activeVariants, OptionsError, resolveOptions, type ServiceOptions } from './options.js';
import type { RequestContext } from './request-context.js';
import { respond } from './respond.js';
import type { Route } from './route-definition.js';
import { apiRoutes } from './route-table.js';
import { Router } from './router.js';
import { Store } from './store.js';
import type { CompiledUserRoute } from './user-routes/compile-routes.js';
import { liveRoutes, type LiveRoutes } from './user-routes/live-routes.js';
import { loadWorld } from './world.js';

export interface Service {
  handle(request: ServiceRequest): Promise<ServiceResponse>;
  /** `handle`, answered at once where nothing waits (no latency fault, no store round trip): a host writes it in the same turn. */
  handleNow(request: ServiceRequest): ServiceResponse | Promise<ServiceResponse>;
  readonly clock: Clock;
  readonly store: Store;
  readonly journal: Journal;
  /** The legal variations it plays where the spec is silent; the control API switches them. */
  readonly variants: ActiveVariants;
  /** The fault rules in force and their seed. */
  readonly faults: FaultInjector;
  /** The user's routes: the control API adds, replaces and removes them; a reloaded config file replaces them all. */
  readonly routes: LiveRoutes;
}

export function createService(serviceOptions: ServiceOptions): Service {
  const config = resolveOptions(serviceOptions);
  const variants = activeVariants(serviceOptions.variants);
  const store = new Store(config.bounds, config.storeEngine);
  const journal = new Journal(config.journalSize);
  const faults = createFaultInjector(serviceOptions);
  const reseedPlayers = () => {
    store.clearPlayers();
    if (config.world !== undefined) loadWorld(store, config, config.world, config.clock.now());
  };
  const restored = config.storeEngine?.attach(store, config.clock) === true;
  try {
    if (!restored) reseedPlayers();
  } catch (error) {
    throw error instanceof ApiError ? new OptionsError(`world: ${error.message}`) : error;
  }
  const clock = isControllable(config.clock) ? config.clock : undefined;
  const apiRouter = (userRoutes: readonly CompiledUserRoute[]) =>
    new Router<Route>(apiRoutes(userRoutes).map((route) => ({ method: route.spec.method, path: route.spec.path, target: route })));
  let router = apiRouter(config.userRoutes);
  const routes = liveRoutes(config, serviceOptions.actionCosts, (userRoutes) => {
    router = apiRouter(userRoutes);
  });
  const sampleService = (): SampleService => {
    const codes: string[] = [];
    // On memory, with no world, faults or listeners: the examples' session touches nothing of this service's.
    const { world, storeEngine, onRequest, onStoreStatus, ...shared } = serviceOptions;
    const sample = createService({
      ...shared,
      clock: new ManualClock(config.clock.now()),
      variants: [...variants.selection.names],
      routes: config.userRoutes.map((route) => route.definition),
      faults: [],
      control: { enabled: true },
      onOtp: (delivery) => codes.push(delivery.code),
      onError: () => {},
    });
    return { handle: (request) => sample.handle(request), codes };
  };
  const control = config.control.enabled
    ? createControlApi({ store, options: config, variants, journal, clock, reseedPlayers, faults, routes, sampleService })
    : undefined;

  async function answerControl(context: RequestContext): Promise<Answer> {
    try {
      return await control!.answer(context.request, context.now);
    } catch (error) {
      return errorAnswer(error, config.onError);
    }
  }

  /** The part a store keeps, journal included, so that an engine keeps the request's entry with its records. */
  const stateful: StatefulPart = {
    plan: (context: RequestContext): RequestPlan => (context.isControl ? CONTROL_PLAN : planAdmission(context, router)),
    run(context: RequestContext, plan: RequestPlan): Answer | Promise<Answer> {
      if (plan.control) return answerControl(context);
      const answer = answerApi(context, plan);
      if (answer instanceof Promise) return answer.then((value) => recorded(context, value));
      return recorded(context, answer);
    },
  };

  const engine = config.storeEngine;
  const kept = engine === undefined ? undefined : keptBy(engine, stateful, config.onStoreStatus);

  function recorded(context: RequestContext, answer: Answer): Answer {
    record(context, answer);
    return answer;
  }

  function record(context: RequestContext, answer: Answer): void {
    const entry: JournalEntry = {
      atMs: context.now,
      method: context.request.method,
      path: journalPath(context.request.path),
      status: answer.status,
      category: answer.route?.category ?? answer.countedAs ?? null,
      route: answer.route?.id ?? null,
      unknownFields: answer.unknownFields !== undefined && answer.unknownFields.length > 0 ? [...answer.unknownFields] : null,
      ip: context.request.ip,
      origin: context.caller.origin ?? null,
      playerId: answer.player?.id ?? null,
      fault: context.faults?.labels ?? null,
      generalisedFrom: answer.generalisedFrom ?? null,
      ...keptRequest(context.request),
    };
    journal.add(entry);
    config.onRequest?.(entry);
  }

  /** Answered before authentication, routing, counting and faults, on every path; never counted. */
  function answerPreflight(context: RequestContext): ServiceResponse {
    const headers = { ...preflightHeaders(context.request, context.caller.corsOrigin), date: httpDate(context.now) };
    const response: ServiceResponse = { status: 204, headers, body: undefined };
    if (!context.isControl) record(context, response);
    return response;
  }

  function handleNow(request: ServiceRequest): ServiceResponse | Promise<ServiceResponse> {
    const origin = headerValue(request, 'origin');
    const isControl = control !== undefined && isControlPath(request.path);
    // The control API keeps its own origin rules; the API lets through the CORS origins and the game origins.
    const allowed = origin !== undefined && (isControl ? control.allowsOrigin(origin) : corsAllows(config.corsOrigins, config.gameOrigins, origin));
    const caller = { ip: request.ip, origin, isGameOrigin: origin !== undefined && config.gameOrigins.has(origin), corsOrigin: allowed ? origin : undefined };
    const preflight = isPreflight(request, caller.corsOrigin);
    const met = isControl || preflight ? NO_FAULTS : faults.draw(request.method, request.path);
    const arrive = (): RequestContext => ({
      request,
      now: config.clock.now(),
      config,
      variants: variants.current,
      store,
      caller,
      isControl,
      faults: met === NO_FAULTS ? undefined : met,
    });
    if (preflight) return answerPreflight(arrive());
    if (met.latencyMs > 0) return waitForLatency(met).then(() => answerArrived(request, arrive));
    return answerArrived(request, arrive);
  }

  function answerArrived(request: ServiceRequest, arrive: () => RequestContext): ServiceResponse | Promise<ServiceResponse> {
    if (kept === undefined) {
      const context = arrive();
      const answer = stateful.run(context, stateful.plan(context));
      return answer instanceof Promise ? answer.then((value) => respond(context, value)) : respond(context, answer);
    }
    return kept(request, arrive).then(({ context, answer }) => respond(context, answer));
  }

  async function handle(request: ServiceRequest): Promise<ServiceResponse> {
    return handleNow(request);
  }

  return { handle, handleNow, clock: config.clock, store, journal, variants, faults, routes };
}
