import type { Exchange } from '../common/exchange.js';
import type { Identity } from '../target/identities.js';
import type { Caller, Expectation } from '../rules/model/rate-limit-model.js';
import { instant, midpoint } from '../rules/model/server-time.js';
import type { Call } from '../target/call.js';
import type { RunModel, RunReal } from './fuzz-session.js';
import { departures, FUZZ_RULES, type Knowledge, onePerRule } from '../rules/index.js';
import type { Outcome } from '../rules/model/modelled-answer.js';
import { modelAnswer, type ModelledReading } from '../rules/session/modelled-answers.js';
import { Disagreement, findingsOf } from './step.js';

export interface StepRequest {
  description: string;
  call: Call & { identity: Identity };
  caller: Caller;
  outcome: Outcome;
}

/**
 * Where a category's windows start is learned from its first answers, after the model opened that bucket under
 * another alignment: the bucket ends where the answer says, and the category's windows opened from now on follow it.
 */
function followLearnedWindow(model: RunModel, caller: Caller, expectation: Expectation, judged: ModelledReading, atMs: number): void {
  if (expectation.category === undefined || judged.remaining === undefined || judged.windowEnd === undefined) return;
  model.limits.sync(expectation.category, caller, { remaining: judged.remaining, atMs, windowEndMs: midpoint(judged.windowEnd) });
}

/**
 * Sends one request of a command, counts it in the model, and judges the answer against the model's
 * expectation; throws a Disagreement after recording the step when they differ.
 */
export async function sendStep(model: RunModel, real: RunReal, request: StepRequest): Promise<Exchange> {
  const { session } = real;
  const sentAt = Date.now();
  const atMs = model.nowMs ?? session.serverClock.serverMs(sentAt);
  const { method, path } = request.call;
  const expectation = model.limits.record({ method, path, caller: request.caller, atMs });
  const alignmentKnown = expectation.category === undefined || session.choices.alignments.has(expectation.category);
  const exchange = await session.target.send({ ...request.call, expectLimit: true });
  session.stats.requests++;
  if (exchange.status === 429) session.stats.limited++;
  if (expectation.counted !== false) session.counted(request.call, expectation.category);
  const at = model.nowMs === undefined ? session.serverClock.answeredAt(exchange) : instant(model.nowMs);
  const { caller } = request;
  const judged = modelAnswer(exchange, expectation, request.outcome, { caller, at, choices: session.choices, exactClock: model.nowMs !== undefined });
  const knowledge: Knowledge = { path: path.split('?')[0]!, external: !caller.gameOrigin, serverTime: at, caller, modelledAnswer: judged.modelled };
  const findings = onePerRule(findingsOf([...departures(exchange, knowledge, FUZZ_RULES), ...real.ruleSessions.observe(exchange, knowledge)]));
  real.steps.push({ description: request.description, exchange, expectation, findings });
  if (findings.length > 0) throw new Disagreement(findings);
  if (!alignmentKnown && session.choices.alignments.has(expectation.category!)) followLearnedWindow(model, request.caller, expectation, judged, atMs);
  // Near a window's end either answer is right: the model takes the one the target gave.
  if (expectation.nearBoundary && expectation.category !== undefined && judged.remaining !== undefined) {
    const limit = expectation.limit ?? 0;
    const windowEndMs = judged.remaining === limit - 1 ? model.limits.windowEndFor(expectation.category, atMs) : expectation.windowEndMs;
    model.limits.sync(expectation.category, request.caller, { remaining: judged.remaining, atMs, windowEndMs });
  }
  return exchange;
}
