import type { Exchange } from '../common/exchange.js';
import type { Expectation } from '../rules/model/rate-limit-model.js';
import type { Finding } from '../rules/session/rate-limit-judge.js';

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
