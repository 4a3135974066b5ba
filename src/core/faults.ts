import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { pathPattern } from './path-pattern.js';

/** Statuses a fault may answer with: the failures of a server or of what stands in front of it. */
export const FAULT_STATUSES = [500, 502, 503, 504] as const;

/** What a fault does to a matching request. */
export type FaultEffect =
  | { kind: 'status'; status: (typeof FAULT_STATUSES)[number] }
  | { kind: 'latency'; minMs: number; maxMs: number }
  | { kind: 'reset' }
  | { kind: 'truncate' }
  | { kind: 'rate-limit' };

/** One rule: which requests (method, path pattern), how often, and what happens to them. */
export type FaultRule = FaultEffect & {
  /** A method, or `*` for every method. */
  method: string;
  /** A path pattern (see pathPattern); `*` for every path outside the control API. */
  path: string;
  /** The chance, from 0 to 1, that a matching request meets the fault. */
  probability: number;
};

/** The faults one request meets, drawn when it arrives. */
export interface FaultsMet {
  /** Added before the answer, in milliseconds of real time. */
  latencyMs: number;
  status?: (typeof FAULT_STATUSES)[number];
  reset: boolean;
  truncate: boolean;
  rateLimit: boolean;
  /** How the journal names them: `status 503`, `latency 120 ms`, `reset`, …; empty when none. */
  labels: string[];
}

interface ActiveRule {
  rule: FaultRule;
  matches: (method: string, path: string) => boolean;
}

const NONE: FaultsMet = { latencyMs: 0, reset: false, truncate: false, rateLimit: false, labels: [] };

/** The fault rules in force and the generator that decides them: the same seed and requests, the same faults. */
export class FaultInjector {
  #rules: ActiveRule[] = [];
  #rng: RandomGenerator;
  #seed: number;

  constructor(rules: readonly FaultRule[], seed: number) {
    this.#seed = seed;
    this.#rng = xoroshiro128plus(seed);
    this.replace(rules);
  }

  get seed(): number {
    return this.#seed;
  }

  get rules(): readonly FaultRule[] {
    return this.#rules.map(({ rule }) => rule);
  }

  add(rule: FaultRule): void {
    const matchesPath = pathPattern(rule.path);
    const method = rule.method.toUpperCase();
    this.#rules.push({ rule, matches: (requestMethod, path) => (method === '*' || method === requestMethod) && matchesPath(path) });
  }

  replace(rules: readonly FaultRule[]): void {
    this.#rules = [];
    for (const rule of rules) this.add(rule);
  }

  /** Starts the draws again from `seed`, so that a test can replay a run of faults. */
  reseed(seed: number): void {
    this.#seed = seed;
    this.#rng = xoroshiro128plus(seed);
  }

  /** The faults a request meets: each matching rule draws once, in the order the rules were added. */
  draw(method: string, path: string): FaultsMet {
    if (this.#rules.length === 0) return NONE;
    const met: FaultsMet = { latencyMs: 0, reset: false, truncate: false, rateLimit: false, labels: [] };
    for (const { rule, matches } of this.#rules) {
      if (!matches(method, path) || uniformFloat64(this.#rng) >= rule.probability) continue;
      switch (rule.kind) {
        case 'latency': {
          const ms = rule.minMs === rule.maxMs ? rule.minMs : uniformInt(this.#rng, rule.minMs, rule.maxMs);
          met.latencyMs += ms;
          met.labels.push(`latency ${ms} ms`);
          break;
        }
        case 'status':
          met.status ??= rule.status;
          met.labels.push(`status ${rule.status}`);
          break;
        case 'reset':
          met.reset = true;
          met.labels.push('reset');
          break;
        case 'truncate':
          met.truncate = true;
          met.labels.push('truncate');
          break;
        case 'rate-limit':
          met.rateLimit = true;
          met.labels.push('rate-limit');
          break;
      }
    }
    return met.labels.length === 0 ? NONE : met;
  }
}
