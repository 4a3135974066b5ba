import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { CONTROL_ROUTES } from '../spec/control-routes.js';
import { ApiError } from './errors.js';
import { pathPattern } from './path-pattern.js';

/** Statuses a fault may answer with: the failures of a server or of what stands in front of it. */
export const FAULT_STATUSES = [500, 502, 503, 504] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

const STATUS_TEXT: Readonly<Record<FaultStatus, string>> = {
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Rules held at once: enough for any test plan, and a bound on the work each request does to draw. */
export const MAX_FAULT_RULES = 100;
/** Seeds (of the fault draws and of `random` variants) are 32-bit unsigned integers: the generator reads no more of a number. */
export const MAX_FAULT_SEED = 0xffff_ffff;
/** A seed when none is given, from Web Crypto (in Node and browsers alike); reported so that a run can be replayed. */
export const randomSeed = (): number => crypto.getRandomValues(new Uint32Array(1))[0]!;

/** What a fault does to a matching request. */
export type FaultEffect =
  | { kind: 'status'; status: FaultStatus }
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

/** A rule as the mock holds it: with the id that removes it, and its text form (`GET /api/player 503@0.2`). */
export type StoredFaultRule = FaultRule & { id: string; text: string };

/** The faults one request meets, drawn when it arrives. */
export interface FaultsMet {
  /** Added before the answer, in milliseconds of real time. */
  latencyMs: number;
  status?: FaultStatus;
  /** The rule that chose `status`, for the error message. */
  statusRule?: StoredFaultRule;
  reset: boolean;
  truncate: boolean;
  rateLimit: boolean;
  /** How the journal names them: `status 503`, `latency 120 ms`, `reset`, …; empty when none. */
  labels: string[];
}

interface ActiveRule {
  rule: StoredFaultRule;
  matches: (method: string, path: string) => boolean;
}

/** What a request meets when no rule fires; the same object every time, so that callers can skip the work. */
export const NO_FAULTS: FaultsMet = Object.freeze({ latencyMs: 0, reset: false, truncate: false, rateLimit: false, labels: [] });

function effectText(rule: FaultRule): string {
  switch (rule.kind) {
    case 'status':
      return String(rule.status);
    case 'latency':
      return rule.minMs === rule.maxMs ? `latency:${rule.minMs}` : `latency:${rule.minMs}-${rule.maxMs}`;
    case 'rate-limit':
      return '429';
    default:
      return rule.kind;
  }
}

/** The rule in the --fault syntax, which reads back as the same rule. */
export function faultRuleText(rule: FaultRule): string {
  return `${rule.method} ${rule.path} ${effectText(rule)}${rule.probability === 1 ? '' : `@${rule.probability}`}`;
}

/** The {error} message of an injected status: the status, and the rule that chose it. */
export function injectedStatusError(met: FaultsMet): ApiError {
  const status = met.status!;
  return new ApiError(status, `${STATUS_TEXT[status]} (a fault injected by the mock: rule ${met.statusRule!.id}, ${met.statusRule!.text})`);
}

/** The fault rules in force and the generator that decides them: the same seed and requests, the same faults. */
export class FaultInjector {
  #rules: ActiveRule[] = [];
  #rng: RandomGenerator;
  #seed: number;
  #lastId = 0;

  constructor(rules: readonly FaultRule[], seed: number) {
    this.#seed = seed;
    this.#rng = xoroshiro128plus(seed);
    this.replace(rules);
  }

  get seed(): number {
    return this.#seed;
  }

  get rules(): readonly StoredFaultRule[] {
    return this.#rules.map(({ rule }) => rule);
  }

  /** Adds a rule after the others; a 409 once MAX_FAULT_RULES are held. */
  add(rule: FaultRule): StoredFaultRule {
    if (this.#rules.length >= MAX_FAULT_RULES)
      throw new ApiError(409, `The mock holds at most ${MAX_FAULT_RULES} fault rules; DELETE ${CONTROL_ROUTES.clearFaults.pattern} clears them`);
    const stored: StoredFaultRule = { id: `f${++this.#lastId}`, ...rule, text: faultRuleText(rule) };
    const matchesPath = pathPattern(rule.path);
    const method = rule.method.toUpperCase();
    this.#rules.push({ rule: stored, matches: (requestMethod, path) => (method === '*' || method === requestMethod) && matchesPath(path) });
    return stored;
  }

  replace(rules: readonly FaultRule[]): void {
    this.#rules = [];
    for (const rule of rules) this.add(rule);
  }

  /** Removes the rule with that id; false when there is none. */
  remove(id: string): boolean {
    const before = this.#rules.length;
    this.#rules = this.#rules.filter(({ rule }) => rule.id !== id);
    return this.#rules.length < before;
  }

  /** Removes every rule; answers how many there were. */
  clear(): number {
    const removed = this.#rules.length;
    this.#rules = [];
    return removed;
  }

  /** Starts the draws again from `seed`, so that a test can replay a run of faults. */
  reseed(seed: number): void {
    this.#seed = seed;
    this.#rng = xoroshiro128plus(seed);
  }

  /** The statuses the rules may inject on a request of this method and path (any chance above none). */
  injectableStatuses(method: string, path: string): FaultStatus[] {
    const statuses = this.#rules.flatMap(({ rule, matches }) => (rule.kind === 'status' && rule.probability > 0 && matches(method, path) ? [rule.status] : []));
    return [...new Set(statuses)];
  }

  /** The faults a request meets: each matching rule draws once, in the order the rules were added. */
  draw(method: string, path: string): FaultsMet {
    if (this.#rules.length === 0) return NO_FAULTS;
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
          if (met.status === undefined) {
            met.status = rule.status;
            met.statusRule = rule;
          }
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
    return met.labels.length === 0 ? NO_FAULTS : met;
  }
}
