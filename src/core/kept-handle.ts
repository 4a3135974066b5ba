import { HEADERS } from '../spec/limits.js';
import { specRoute } from '../spec/routes.js';
import type { Answer } from './answer.js';
import { errorBody } from './errors.js';
import type { ServiceRequest } from './http.js';
import { type RequestPlan, requestLoad } from './admission-plan.js';
import type { RequestContext } from './request-context.js';
import { type StoreEngine, type StoreStatusListener, StoreSuspension, StoreUnavailable } from './store-engine.js';

/** The part of a request that reads and changes state: run again, with the same context and plan, after a store suspension. */
export interface StatefulPart {
  /** What the request needs, decided from its context alone. */
  plan(context: RequestContext): RequestPlan;
  run(context: RequestContext, plan: RequestPlan): Answer | Promise<Answer>;
}

const HEALTH_PATH = specRoute('health').path;

/** What a request stops on when its engine must wait for its server, or cannot reach it. */
export function isStoreInterruption(error: unknown): boolean {
  return error instanceof StoreSuspension || error instanceof StoreUnavailable;
}

/**
 * The 503 of a request whose state could not be read or kept: nothing it did is acknowledged, and nothing is
 * let through a limit that could not be counted. /health says so in its status too.
 */
function unavailableAnswer(request: ServiceRequest, error: StoreUnavailable): Answer {
  const body = errorBody(error.message);
  return {
    status: 503,
    headers: { 'cache-control': 'no-store', [HEADERS.retryAfter]: String(error.retryAfterSeconds) },
    body: request.path === HEALTH_PATH ? { status: 'unavailable', ...body } : body,
  };
}

/** A request's context and what its stateful part answered. */
export interface KeptAnswer {
  context: RequestContext;
  answer: Answer;
}

/**
 * The stateful part of a request with its records loaded before and kept after by the engine, before the answer
 * leaves. The context is made once the records are loaded (`arrive`), so it reads the time another process may
 * have moved; only the stateful part runs again after a suspension, never what came before (the fault draw, its
 * latency). Each change of the store's reachability is told once, however many requests meet it.
 *
 * An engine that loads first is handed the request's plan; where it counts the request with the load, the request
 * runs with the context and plan that count was made from, so that its admission reads the instant and the
 * variants the count was made with.
 */
export function keptBy(
  engine: StoreEngine,
  stateful: StatefulPart,
  onStatus: StoreStatusListener = () => {},
): (request: ServiceRequest, arrive: () => RequestContext) => Promise<KeptAnswer> {
  let down = false;
  return async (request, arrive) => {
    let context: RequestContext | undefined;
    try {
      let plan: RequestPlan | undefined;
      if (engine.beforeRequest !== undefined) {
        const early = arrive();
        const earlyPlan = stateful.plan(early);
        const handOver = await engine.beforeRequest(request, requestLoad(early, earlyPlan));
        if (handOver !== undefined) {
          context = early;
          plan = earlyPlan;
          // Synchronously up to the stateful part's count: the bucket takes what was counted for this request only.
          handOver();
        }
      }
      if (context === undefined || plan === undefined) {
        context = arrive();
        plan = stateful.plan(context);
      }
      let answer: Answer | undefined;
      while (answer === undefined) {
        try {
          answer = await stateful.run(context, plan);
        } catch (error) {
          if (!(error instanceof StoreSuspension)) throw error;
          const resume = await error.ready;
          // Synchronously up to the read that suspended: nothing else can take what `resume` hands over.
          resume();
        }
      }
      await engine.afterRequest();
      if (down) {
        down = false;
        onStatus({ available: true });
      }
      return { context, answer };
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      if (!down) {
        down = true;
        onStatus({ available: false, reason: error.message });
      }
      return { context: context ?? arrive(), answer: unavailableAnswer(request, error) };
    }
  };
}
