/** XML 1.0 text: the five escapes, and no control characters it forbids. */
export function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** The testcase a run that ends early adds, so that a CI step keeping only the file still shows why. */
export const RUN_TESTCASE = { rule: 'RUN', title: 'the run reaches the target and completes' } as const;

/** The time only where the tool times each testcase; a failure's type is a rule id, with nothing in it to escape. */
export interface JunitTestcase {
  readonly name: string;
  readonly durationMs?: number;
  readonly failures?: readonly { readonly message: string; readonly type: string; readonly text: string }[];
  readonly skipped?: string | undefined;
  readonly output?: string | undefined;
}

/** Failures as each tool counts them (a check can fail with no message, the proxy counts rules with findings); tests and skips, from the testcases. */
type Counted = Readonly<{ failures: number; durationMs: number }>;
type Properties = Readonly<Record<string, string | number | undefined>>;
export type JunitSuite = Counted & Readonly<{ area: string; testcases: readonly JunitTestcase[] }>;

function countAttributes({ failures, durationMs }: Counted, testcases: readonly JunitTestcase[]): string {
  const skipped = testcases.filter((testcase) => testcase.skipped !== undefined).length;
  return `tests="${testcases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(durationMs)}"`;
}

function testcaseXml({ name, durationMs, failures = [], skipped, output }: JunitTestcase, classname: string): string {
  const time = durationMs === undefined ? '' : ` time="${seconds(durationMs)}"`;
  const open = `    <testcase classname="${xml(classname)}" name="${xml(name)}"${time}`;
  const inner = [
    ...failures.map(({ message, type, text }) => `      <failure message="${xml(message)}" type="${type}">${xml(text)}</failure>`),
    ...(skipped === undefined ? [] : [`      <skipped message="${xml(skipped)}"/>`]),
    ...(output === undefined ? [] : [`      <system-out>${xml(output)}</system-out>`]),
  ];
  return inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join('\n')}\n    </testcase>`;
}

/** The whole file: a testsuite per area (`tool: area`, its testcases classed `tool.area`), each with the run's properties, those undefined left out. */
export function junitXml(name: string, totals: Counted, properties: Properties, suites: readonly JunitSuite[]): string {
  const propertyXml = Object.entries(properties).map(([key, value]) => (value === undefined ? '' : `<property name="${key}" value="${xml(String(value))}"/>`));
  const everyTestcase = suites.flatMap((suite) => suite.testcases);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" ${countAttributes(totals, everyTestcase)}>`,
    ...suites.flatMap((suite) => [
      `  <testsuite name="${xml(`${name}: ${suite.area}`)}" ${countAttributes(suite, suite.testcases)}>`,
      `    <properties>${propertyXml.join('')}</properties>`,
      ...suite.testcases.map((testcase) => testcaseXml(testcase, `${name}.${suite.area}`)),
      '  </testsuite>',
    ]),
    '</testsuites>',
    '',
  ].join('\n');
}
