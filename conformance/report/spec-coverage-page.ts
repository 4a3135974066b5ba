import { SPEC_SECTIONS } from '../../src/spec/sentences.js';
import type { DeclaredCheck } from './declared-check.js';
import { CLIENT_RULES, FUZZ_RULES, PROXY_RULES, SERVER_RULES } from '../rules/index.js';
import { UNTESTED_REASONS, type UntestedReason } from '../rules/untested.js';
import { checkSummary } from './check-result.js';
import { describeUntested, sentenceCounts, sentenceCoverage, type SentenceCoverage } from './sentence-coverage.js';

export const SPEC_COVERAGE_PAGE = 'docs/spec-coverage.md';

/** Text as Markdown shows it, not as markup: `<major>` stays visible, `*` and `_` make no emphasis. */
export const md = (text: string) => text.replace(/[\\`*_[\]<>]/g, '\\$&');

/** The client rules that rest on a sentence: the proxy judges clients by them. */
export const clientRulesOn = (id: string) => CLIENT_RULES.filter((rule) => (rule.sentences as readonly string[]).includes(id));

/** The fuzz rules among a sentence's rules, in the registry's order (which its rules follow too). */
export const fuzzRulesAmong = (rules: readonly string[]) => FUZZ_RULES.filter((rule) => rules.includes(rule.id));

/** A table of counts, its columns padded as the formatter pads them. */
function countTable(rows: readonly [string, number][]): string[] {
  const width = Math.max(...rows.map(([name]) => name.length));
  const countWidth = Math.max('Count'.length, ...rows.map(([, count]) => String(count).length));
  return [
    `| ${'Sentences'.padEnd(width)} | ${'Count'.padStart(countWidth)} |`,
    `| ${'-'.repeat(width)} | ${'-'.repeat(countWidth - 1)}: |`,
    ...rows.map(([name, count]) => `| ${name.padEnd(width)} | ${String(count).padStart(countWidth)} |`),
  ];
}

function intro(entries: readonly SentenceCoverage[]): string[] {
  const counts = sentenceCounts(entries);
  const reasons = Object.entries(counts.untestedBy).map(([reason, count]): [string, number] => [
    `Untested: ${UNTESTED_REASONS[reason as UntestedReason]}`,
    count,
  ]);
  return [
    '# Spec coverage: every sentence, and what tests it',
    '',
    "<!-- Written by `npm run spec-coverage` from src/spec/sentences*.ts, the rule registry in conformance/rules/ (each rule's",
    '     sentences, what the fuzzer and the proxy judge of it, the untested sentences) and the checks; edit those, not this page:',
    '     a test fails when it differs from what they give. -->',
    '',
    'Each sentence and table row of the [spec](../spec/game-service-api.md) has a stable id, and each says what tests it: the checks of',
    '[`game-service check`](check.md) (by rule, with their titles), the properties of [`game-service fuzz`](fuzz.md) (the rules its',
    'findings are reported under) and what [`game-service proxy`](proxy.md) judges of live traffic. A normative sentence that no',
    'rule tests on a server says why.',
    '`game-service check --coverage` prints this map for one run: what passed, failed or was skipped against that target.',
    '',
    'How the spec is cut: every table row but the header, and every sentence of the other lines (a line may hold several).',
    'A sentence is _normative_ when a server or a client can get it wrong; _spec-silent_ when it says what is "not shown"',
    '(a normative sentence that leaves a detail open, such as "unit unspecified", stays normative: the checks accept any',
    'choice there); _descriptive_ when it describes the document or the service, or defines a word, and obliges nothing.',
    '',
    ...countTable([
      ['In the spec', counts.sentences],
      ['Normative', counts.normative],
      ['Tested by a rule', counts.tested],
      ...reasons,
      ['Spec-silent ("not shown")', counts.specSilent],
      ['Descriptive', counts.descriptive],
    ]),
    '',
    proxyRules(),
  ];
}

/** What the proxy judges, in one sentence: how many rules on each side. */
function proxyRules(): string {
  const onServers = SERVER_RULES.filter((rule) => 'proxy' in rule).length;
  const onClients = CLIENT_RULES.map((rule) => `\`${rule.id}\``).join(', ');
  return (
    `The proxy judges servers by ${onServers} of these rules, and clients by ${CLIENT_RULES.length} of their own (${onClients}); ` +
    'a sentence only a client can break is untested on servers, and lists the client rule that judges it.'
  );
}

function sentenceLines({ sentence, rules, untested }: SentenceCoverage, checks: readonly DeclaredCheck[]): string[] {
  const words = `«${md(sentence.words)}»`;
  if (sentence.kind !== 'normative') return [`- ${sentence.id} (${sentence.kind}) ${words}`];
  const fuzz = fuzzRulesAmong(rules);
  // Every client rule is a proxy rule, and PROXY_RULES lists them after the server's.
  const proxy = [...PROXY_RULES.filter((rule) => rule.side === 'server' && (rules as string[]).includes(rule.id)), ...clientRulesOn(sentence.id)];
  return [
    `- **${sentence.id}** ${words}`,
    ...(untested === undefined ? [] : [`  - ${md(describeUntested(untested))}`]),
    ...checks
      .filter((check) => (rules as string[]).includes(check.rule))
      .map((check) => `  - check \`${check.rule}\` ${md(checkSummary(check).slice(check.rule.length + 1))}`),
    ...fuzz.map((rule) => `  - fuzz \`${rule.id}\` ${md(rule.fuzz)}`),
    ...proxy.map((rule) => `  - proxy${rule.side === 'client' ? ' on clients' : ''} \`${rule.id}\` ${md(rule.proxy ?? '')}`),
  ];
}

/** The page: the counts, then each section's sentences with what tests them, or why nothing does. */
export function specCoveragePage(checks: readonly DeclaredCheck[]): string {
  const entries = sentenceCoverage();
  const sections = SPEC_SECTIONS.flatMap((section) => [
    '',
    `## ${section === SPEC_SECTIONS[0] ? 'Introduction' : section}`,
    '',
    ...entries.filter(({ sentence }) => sentence.section === section).flatMap((entry) => sentenceLines(entry, checks)),
  ]);
  return `${[...intro(entries), ...sections].join('\n')}\n`;
}
