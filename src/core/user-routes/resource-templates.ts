import { isJsonObject } from '../body.js';
import { assertJsonWithin, jsonCopy } from './json-fields.js';
import { compileTemplate, type Template, type TemplateProblem, type TemplateRoot } from './template.js';
import { MAX_RESOURCE_FIELDS_BYTES } from './user-route.js';

/** The resources whose fields the spec leaves open ("not shown"): the user says them. */
export type ResourceKind = 'ship' | 'player';

/** Templates of the fields the mock gives each new ship and player, from a config's `ship` and `player`. */
export interface ResourceTemplates {
  ship: Template | undefined;
  player: Template | undefined;
}

export const NO_SHIP_MESSAGE = 'This player has no ship yet; create one with POST /api/player/ship';

/** The fields the mock keeps itself: the user adds fields beside them, under other names. */
const MOCK_OWN_FIELDS: Record<ResourceKind, readonly string[]> = {
  ship: ['id', 'name', 'createdAt'],
  player: ['id', 'email', 'emailVerified', 'createdAt', 'actionPoints', 'maxActionPoints', 'ship'],
};

/** Why these fields cannot be given to a ship or player, or undefined when they can. */
export function mockOwnFieldProblem(kind: ResourceKind, fields: Iterable<string>): string | undefined {
  const own = [...fields].filter((field) => MOCK_OWN_FIELDS[kind].includes(field));
  if (own.length === 0) return undefined;
  const setBy = kind === 'ship' ? 'the mock sets (name from the creation body or a world)' : 'the mock keeps from its own state';
  return `names ${own.join(', ')}: the ${kind}'s ${MOCK_OWN_FIELDS[kind].join(', ')} are fields ${setBy}; give yours other names`;
}

const ROOTS: Record<ResourceKind, ReadonlySet<TemplateRoot>> = {
  ship: new Set(['body', 'player', 'now', 'counter']),
  player: new Set(['player', 'now', 'counter']),
};

const EVALUATED: Record<ResourceKind, string> = {
  ship: 'once, when the ship is created, from its creation body, the player, {{now}} and {{counter}}',
  player: 'once, when the player is created, from the player, {{now}} and {{counter}}',
};

/** Checks and compiles the `ship` and `player` templates given; every problem named by its JSON Pointer. */
export function compileResourceTemplates(given: Partial<Record<ResourceKind, unknown>>): { templates: ResourceTemplates; problems: TemplateProblem[] } {
  const problems: TemplateProblem[] = [];
  const compile = (kind: ResourceKind): Template | undefined => {
    const value = given[kind];
    if (value === undefined) return undefined;
    if (!isJsonObject(value)) {
      problems.push({ at: kind, message: `must be an object: the fields of each new ${kind}, as templates` });
      return undefined;
    }
    const own = mockOwnFieldProblem(kind, Object.keys(value));
    if (own !== undefined) problems.push({ at: kind, message: own });
    const why = () => `which a ${kind} template does not read: it is evaluated ${EVALUATED[kind]}`;
    const compiled = compileTemplate(value, { roots: ROOTS[kind], params: new Set(), why });
    problems.push(...compiled.problems.map((problem) => ({ at: `${kind}${problem.at}`, message: problem.message })));
    return compiled.template;
  };
  return { templates: { ship: compile('ship'), player: compile('player') }, problems };
}

/** What a resource template is evaluated with. */
export interface ResourceScope {
  /** The ship's creation body; none for a player. */
  body?: Readonly<Record<string, unknown>>;
  /** The mock's view of the player. */
  player: Readonly<Record<string, unknown>>;
  now: number;
  counter: number;
}

/** The fields a template gives a new resource: plain JSON, within MAX_RESOURCE_FIELDS_BYTES (else 413). */
export function templateFields(kind: ResourceKind, template: Template, scope: ResourceScope): Record<string, unknown> {
  const value = template({
    params: {},
    query: {},
    body: scope.body ?? {},
    player: scope.player,
    ship: undefined,
    state: {},
    now: new Date(scope.now).toISOString(),
    counter: scope.counter,
  });
  const fields = jsonCopy(`The ${kind} template's fields`, value) as Record<string, unknown>;
  assertJsonWithin(`The ${kind}'s fields`, fields, MAX_RESOURCE_FIELDS_BYTES);
  return fields;
}
