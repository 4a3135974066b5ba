import { readFileSync } from 'node:fs';
import { normalizeEmail } from '../core/email.js';
import type { World } from '../core/world.js';
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

/** Each value found a second time, with the pointers of both players. */
function repeats(values: readonly (string | undefined)[], key: string): string[] {
  return values.flatMap((value, index) => {
    const earlier = value === undefined ? -1 : values.indexOf(value);
    return earlier === -1 || earlier === index ? [] : [`/players/${index}/${key} repeats ${value} of /players/${earlier}/${key}`];
  });
}

/**
 * What the schema cannot say: points above the maximum, the same address or token twice. The service checks
 * these again when it loads the world; here they are reported beside the schema's problems, naming the file.
 */
function worldRuleProblems(parsed: unknown, maxActionPoints: number): string[] {
  const players = (parsed as { players?: unknown } | null)?.players;
  if (!Array.isArray(players)) return [];
  const fields = players.map((player: unknown) => (typeof player === 'object' && player !== null ? (player as Record<string, unknown>) : {}));
  const overMax = fields.flatMap((player, index) => {
    const points = player['actionPoints'];
    return typeof points === 'number' && points > maxActionPoints ? [`/players/${index}/actionPoints must be <= ${maxActionPoints} (actionPoints.max)`] : [];
  });
  const emails = fields.map((player) => (typeof player['email'] === 'string' ? normalizeEmail(player['email']) : undefined));
  const tokens = fields.map((player) => (typeof player['token'] === 'string' ? player['token'].toLowerCase() : undefined));
  return [...overMax, ...repeats(emails, 'email'), ...repeats(tokens, 'token')];
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
  const found = [...schemaFound, ...worldRuleProblems(parsed, maxActionPoints)];
  for (const problem of found) problems.add(new CliError('GS_CONFIG', `${subject}: ${problem}`));
  // Valid against the schema when nothing was found.
  return found.length === 0 ? (parsed as World) : undefined;
}
