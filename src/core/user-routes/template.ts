/** What a template may read: the request, the player, their ship, the player's route state, the clock and a counter. */
export interface TemplateScope {
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  body: Readonly<Record<string, unknown>>;
  player: Readonly<Record<string, unknown>> | undefined;
  /** The player's ship as GET /api/player/ship shows it; undefined before there is one. */
  ship: Readonly<Record<string, unknown>> | undefined;
  state: Readonly<Record<string, unknown>>;
  /** ISO 8601 on the mock's clock. */
  now: string;
  /** The ship's or player's number in the order this mock made them (1 for the first); resource templates only. */
  counter: number | undefined;
}

export const TEMPLATE_ROOTS = ['params', 'query', 'body', 'player', 'ship', 'state', 'now', 'counter'] as const satisfies readonly (keyof TemplateScope)[];
export type TemplateRoot = (typeof TEMPLATE_ROOTS)[number];

/** A problem of a template, at a JSON Pointer below the template's own. */
export interface TemplateProblem {
  at: string;
  message: string;
}

/** What a route lets its templates read: the roots, and the parameter names of its path. */
export interface TemplateRules {
  roots: ReadonlySet<TemplateRoot>;
  params: ReadonlySet<string>;
  /** Why a root left out of `roots` is not there, for the message, by root. */
  why: (root: TemplateRoot) => string;
}

export type Template = (scope: TemplateScope) => unknown;

const PLACEHOLDER = /\{\{(.*?)\}\}/g;
/** Reads a dotted path through own properties only: `constructor` or `__proto__` reach nothing. */
function read(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const PATH = /^([A-Za-z_$][\w$]*)((?:\.[\w$-]+)*)$/;

/** One `root.a.b` of an expression: its reader, or the problem that keeps it from being one. */
function compilePath(text: string, path: RegExpExecArray, rules: TemplateRules, problems: string[]): Template {
  const [, root = '', dotted = ''] = path;
  const keys = dotted.split('.').slice(1);
  if (!(TEMPLATE_ROOTS as readonly string[]).includes(root)) {
    problems.push(`{{${text}}} refers to ${root}, which no template can read; expected one of ${TEMPLATE_ROOTS.join(', ')}`);
  } else if (!rules.roots.has(root as TemplateRoot)) {
    problems.push(`{{${text}}} reads ${root}, ${rules.why(root as TemplateRoot)}`);
  } else if (root === 'params' && keys[0] !== undefined && !rules.params.has(keys[0])) {
    const known = rules.params.size === 0 ? 'the path has none' : `the path has ${[...rules.params].map((name) => `:${name}`).join(', ')}`;
    problems.push(`{{${text}}} reads the parameter ${keys[0]}, but ${known}`);
  }
  return (scope) => read(scope[root as TemplateRoot], keys);
}

/** `expr | number`: a path or query parameter is text, and a recorded answer may have echoed it as a number. */
const AS_NUMBER = /\s*\|\s*number\s*$/;

/** The text of a number as that number; any other value as it is. */
function asNumber(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const number = Number(value);
  return Number.isFinite(number) ? number : value;
}

/** One `{{root.a.b ?? other.path ?? fallback}}`, optionally `| number`: the first that reaches a value, or the problems that keep it from being one. */
function compileExpression(text: string, rules: TemplateRules, problems: string[]): Template {
  if (AS_NUMBER.test(text)) {
    const value = compileExpression(text.replace(AS_NUMBER, ''), rules, problems);
    return (scope) => asNumber(value(scope));
  }
  const [first = '', ...fallbacks] = text.split('??').map((part) => part.trim());
  const path = PATH.exec(first);
  if (path === null) {
    problems.push(`{{${text}}} is not a template expression; expected {{root.key…}} with optional ?? fallbacks, e.g. {{params.id}} or {{state.sector ?? 1}}`);
    return () => null;
  }
  const readers = [compilePath(text, path, rules, problems)];
  for (const fallback of fallbacks) {
    const other = PATH.exec(fallback);
    if (other !== null && !['true', 'false', 'null'].includes(fallback)) {
      readers.push(compilePath(text, other, rules, problems));
      continue;
    }
    try {
      const literal: unknown = JSON.parse(fallback);
      readers.push(() => literal);
    } catch {
      problems.push(`{{${text}}} has a fallback that is neither a path nor a JSON literal: ${fallback}`);
    }
  }
  return (scope) => {
    for (const reader of readers) {
      const value = reader(scope);
      if (value !== undefined && value !== null) return value;
    }
    return null;
  };
}

function interpolated(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function compileString(text: string, rules: TemplateRules, problems: string[]): Template {
  const parts = text.split(PLACEHOLDER);
  if (parts.length === 1) return () => text;
  // A string that is one placeholder and nothing else takes the value's own JSON type.
  if (parts.length === 3 && parts[0] === '' && parts[2] === '') return compileExpression(parts[1]!, rules, problems);
  const pieces = parts.map((part, index): Template => (index % 2 === 0 ? () => part : compileExpression(part, rules, problems)));
  return (scope) => pieces.map((piece) => interpolated(piece(scope))).join('');
}

/** A key as a JSON Pointer segment: `~` and `/` escaped. */
export function pointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function compileValue(value: unknown, at: string, rules: TemplateRules, problems: TemplateProblem[]): Template {
  if (typeof value === 'string') {
    const messages: string[] = [];
    const template = compileString(value, rules, messages);
    problems.push(...messages.map((message) => ({ at, message })));
    return template;
  }
  if (Array.isArray(value)) {
    const items = value.map((item, index) => compileValue(item, `${at}/${index}`, rules, problems));
    return (scope) => items.map((item) => item(scope));
  }
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value).map(([key, item]) => [key, compileValue(item, `${at}/${pointer(key)}`, rules, problems)] as const);
    return (scope) => Object.fromEntries(fields.map(([key, field]) => [key, field(scope)]));
  }
  return () => value;
}

/**
 * A JSON value whose strings may hold `{{expr}}`: a string that is exactly one placeholder takes the value's
 * JSON type, placeholders inside other text are interpolated. `expr` is a dotted path from a root of
 * TemplateScope, with an optional `?? <JSON literal>` used when the path reaches nothing, and an optional
 * `| number` that gives the text of a number as the number.
 */
export function compileTemplate(value: unknown, rules: TemplateRules): { template: Template; problems: TemplateProblem[] } {
  const problems: TemplateProblem[] = [];
  const template = compileValue(value, '', rules, problems);
  return { template, problems };
}
