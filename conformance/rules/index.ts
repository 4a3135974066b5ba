import { SENTENCES } from '../../src/spec/sentences.js';
import { PLAIN_SENTENCES, type RuleSentenceId } from '../../src/spec/sentences-plain.js';
import type { Exchange } from '../common/exchange.js';
import { CLIENT_RULES } from './client.js';
import { ENVELOPE_RULES } from './envelopes.js';
import { GAMEPLAY_RULES } from './gameplay.js';
import { HEALTH_RULES } from './health.js';
import { RATE_LIMIT_RULES } from './rate-limits.js';
import { REGISTER_RULES } from './register.js';
import { ROUTING_RULES } from './routing.js';
import { type Judgement, type Knowledge, type Rule, routeKey, type Side } from './rule.js';
import { TOKEN_RULES } from './token.js';
import { VERIFY_RULES } from './verify.js';

export type { Judgement, Knowledge, Side } from './rule.js';

/** The rules a server is judged by, in the order the spec's pages list them. */
export const SERVER_RULES = [
  ...ENVELOPE_RULES,
  ...HEALTH_RULES,
  ...REGISTER_RULES,
  ...VERIFY_RULES,
  ...TOKEN_RULES,
  ...ROUTING_RULES,
  ...GAMEPLAY_RULES,
  ...RATE_LIMIT_RULES,
] as const;

export { CLIENT_RULES };

/** A server rule's id: what a check's title starts with, and what a fuzz or proxy finding on the server names. */
export type RuleId = (typeof SERVER_RULES)[number]['id'];
export type ClientRuleId = (typeof CLIENT_RULES)[number]['id'];
export type AnyRuleId = RuleId | ClientRuleId;
/** The rules the fuzzer reports findings under. */
export type FuzzRuleId = Extract<(typeof SERVER_RULES)[number], { fuzz: string }>['id'];

/** Every rule, server's and client's: the one registry that the checks, the fuzzer, the proxy and the spec's pages read. */
export const RULES: readonly (Rule & { id: AnyRuleId })[] = [...SERVER_RULES, ...CLIENT_RULES];

const BY_ID = new Map<string, Rule>(RULES.map((each) => [each.id, each]));

export function ruleOf(id: AnyRuleId): Rule {
  return BY_ID.get(id)!;
}

/** The spec's words a rule rests on, as a title or a finding quotes them: its quote, else its sentences' words. */
export function ruleQuote(id: AnyRuleId): string {
  const { quote, sentences } = ruleOf(id);
  return quote ?? sentences.map((sentence) => SENTENCES.find((each) => each.id === sentence)?.words ?? sentence).join(' / ');
}

/**
 * The spec's words as a reader takes them in: the rule's quote, or where the spec says it in rows of its tables
 * (a client rule quotes its routes' rows), its sentences in the project's plain words.
 */
export function ruleWords(id: AnyRuleId): string {
  const quote = ruleQuote(id);
  if (!quote.includes(' | ')) return quote;
  return ruleOf(id)
    .sentences.map((sentence) => (sentence in PLAIN_SENTENCES ? PLAIN_SENTENCES[sentence as RuleSentenceId] : sentence))
    .join(' ');
}

/** A check's title: the rule id, the quoted sentence, and what this check does with it. */
export function rule(id: RuleId, what: string): string {
  return `${id} «${ruleQuote(id)}» ${what}`;
}

/** The rules the fuzzer judges, each with what it judges on every response of a sequence. */
export const FUZZ_RULES = SERVER_RULES.filter((each): each is Extract<(typeof SERVER_RULES)[number], { fuzz: string }> => 'fuzz' in each);

/** The rules the proxy judges live traffic by, server's and client's. */
export const PROXY_RULES = RULES.filter((each) => each.proxy !== undefined);

/** One judgement of one exchange, under its rule. */
export interface Verdict extends Judgement {
  rule: AnyRuleId;
  side: Side;
}

type RuleList = readonly (Rule & { id: AnyRuleId })[];

/** A list's rules by route: those of a route some of them are confined to (`routes`), and those of any other. */
interface RouteTable {
  byRoute: ReadonlyMap<string, RuleList>;
  otherRoutes: RuleList;
}

const routeTables = new WeakMap<RuleList, RouteTable>();

/** The rules of a list that may judge an exchange on `route`, in the list's order. */
function rulesOfRoute(rules: RuleList, route: string): RuleList {
  let table = routeTables.get(rules);
  if (table === undefined) {
    const confinedTo = new Set(rules.flatMap((each) => [...(each.routes ?? [])]));
    const mayJudge = (each: Rule, on: string) => each.routes === undefined || each.routes.has(on);
    table = {
      byRoute: new Map([...confinedTo].map((on) => [on, rules.filter((each) => mayJudge(each, on))])),
      otherRoutes: rules.filter((each) => each.routes === undefined),
    };
    routeTables.set(rules, table);
  }
  return table.byRoute.get(route) ?? table.otherRoutes;
}

function verdictsOf(exchange: Exchange, knowledge: Knowledge, rules: RuleList, departedOnly: boolean): Verdict[] {
  // A loop, not flatMap: the proxy judges every exchange it passes, and the arrays between cost it as much as the rules.
  const verdicts: Verdict[] = [];
  for (const each of rulesOfRoute(rules, routeKey(exchange, knowledge))) {
    const judgements = each.judge?.(exchange, knowledge);
    if (judgements === undefined) continue;
    for (const judgement of judgements) if (!(departedOnly && judgement.holds)) verdicts.push({ ...judgement, rule: each.id, side: each.side });
  }
  return verdicts;
}

/** Every judgement the rules make of one exchange (of `rules`, all of them by default): the one judging of single exchanges. */
export function judgeExchange(exchange: Exchange, knowledge: Knowledge, rules: RuleList = RULES): Verdict[] {
  return verdictsOf(exchange, knowledge, rules, false);
}

/** The verdicts of judgeExchange that do not hold: what the proxy reports, without a verdict made for each that holds. */
export function departures(exchange: Exchange, knowledge: Knowledge, rules: RuleList = RULES): Verdict[] {
  return verdictsOf(exchange, knowledge, rules, true);
}

/** A verdict's departure, as a finding says it. */
export const departureMessage = (verdict: Judgement) => verdict.message ?? `expected ${verdict.expected}`;

/** One departure per rule and side of one exchange: a rule and a model (or two judges) may both see one missing header. */
export function onePerRule<Departure extends { rule: string; side?: Side }>(departures: readonly Departure[]): Departure[] {
  const seen = new Set<string>();
  return departures.filter((departure) => {
    const key = `${departure.side ?? 'server'} ${departure.rule}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
