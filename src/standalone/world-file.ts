import { readFileSync } from 'node:fs';
import { worldRuleBreaches, type World, type WorldRuleBreach } from '../core/world.js';
import { worldSchema } from '../core/world-schema.js';
import { CliError } from './cli-error.js';
import type { ProblemList } from './problems.js';
import { compileFileSchema, schemaProblems } from './schema-problems.js';

/** A world file to read, and how messages name it: `--world FILE`, or `world FILE in --config CONFIG`. */
export interface WorldFile {
  path: string;
  subject: string;
}

const validate = compileFileSchema(worldSchema);

/** A breach of the world's rules, as the CLI names it: by its JSON pointer in the file. */
function describeBreach(breach: WorldRuleBreach, maxActionPoints: number): string {
  if ('problem' in breach) return `/players/${breach.index}${breach.field === 'ship' ? '/ship' : ''} ${breach.problem}`;
  const at = `/players/${breach.index}/${breach.field}`;
  return breach.earlier === undefined
    ? `${at} must be <= ${maxActionPoints} (actionPoints.max)`
    : `${at} repeats ${breach.value} of /players/${breach.earlier}/${breach.field}`;
}

/** Reads a world file, noting every problem it has in `problems`; undefined unless it can be used as it is. */
export function readWorldFile({ path, subject }: WorldFile, maxActionPoints: number, problems: ProblemList): World | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const why = error instanceof SyntaxError ? 'is not valid JSON' : 'cannot be read';
    problems.add(new CliError('GS_CONFIG', `${subject} ${why}: ${(error as Error).message}`));
    return undefined;
  }
  const schemaFound = validate(parsed) ? [] : schemaProblems(validate.errors ?? []);
  // The service checks the world's rules again as it loads it; here they are reported beside the schema's problems.
  const players = (parsed as { players?: unknown } | null)?.players;
  const breaches = Array.isArray(players) ? worldRuleBreaches(players, maxActionPoints) : [];
  const found = [...schemaFound, ...breaches.map((breach) => describeBreach(breach, maxActionPoints))];
  for (const problem of found) problems.add(new CliError('GS_CONFIG', `${subject}: ${problem}`));
  // Valid against the schema when nothing was found.
  return found.length === 0 ? (parsed as World) : undefined;
}
