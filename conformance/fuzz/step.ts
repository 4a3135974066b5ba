import type { Exchange } from '../common/exchange.js';
import type { Expectation } from '../rules/model/rate-limit-model.js';
import { departureMessage, type FuzzRuleId, type Verdict } from '../rules/index.js';

/** A departure of a response, under the rule the fuzzer reports it by. */
export interface Finding {
  rule: FuzzRuleId;
  message: string;
}

/** The verdicts of the fuzzed rules that do not hold, as the fuzzer reports them. */
export const findingsOf = (verdicts: readonly Verdict[]): Finding[] =>
  verdicts.filter((verdict) => !verdict.holds).map((verdict) => ({ rule: verdict.rule as FuzzRuleId, message: departureMessage(verdict) }));

/** One thing a run did, as the report lists it: a request with its response and verdict, or a clock move. */
export interface Step {
  /** What the command did, for a person: "register from 198.18.0.3 with the game origin". */
  description: string;
  exchange?: Exchange;
  expectation?: Expectation;
  findings: Finding[];
}

/** A response disagreed with the model: fast-check shrinks the sequence that led to it. */
export class Disagreement extends Error {
  readonly findings: readonly Finding[];

  constructor(findings: readonly Finding[]) {
    super(findings.map((finding) => `${finding.rule}: ${finding.message}`).join('; '));
    this.name = 'Disagreement';
    this.findings = findings;
  }
}
