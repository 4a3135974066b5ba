/**
 * The steps of a GitHub Actions job, read from the workflow YAML that docs/ci.md shows. No YAML library is a
 * dependency of this project, so this reads the one shape such a job has, line by line, and refuses anything
 * else rather than misread it: a `steps:` list whose items hold `name`, `uses`, `if`, `run` (a plain one-line
 * value or a `|` block) and `with:` and `env:` maps of plain values.
 */

export interface WorkflowStep {
  name?: string;
  uses?: string;
  if?: string;
  run?: string;
  with: Record<string, string>;
  env: Record<string, string>;
}

const STEP_KEYS = new Set(['name', 'uses', 'if', 'run']);

interface Line {
  indent: number;
  text: string;
  number: number;
}

function meaningfulLines(yaml: string): Line[] {
  return yaml
    .split('\n')
    .map((raw, index) => ({ indent: raw.length - raw.trimStart().length, text: raw.trim(), number: index + 1 }))
    .filter((line) => line.text !== '' && !line.text.startsWith('#'));
}

/** A plain scalar; quoted and flow values are refused, since this reader does not unescape them. */
function plainValue(value: string, line: Line): string {
  if (/^["'[{>&*!|]/.test(value)) throw new Error(`line ${line.number}: ${value} is not a plain value this reader takes`);
  return value.replace(/\s+#.*$/, '');
}

/** The steps of the first `steps:` list in `yaml`, in order. */
export function workflowSteps(yaml: string): WorkflowStep[] {
  const rawLines = yaml.split('\n');
  const lines = meaningfulLines(yaml);
  const stepsAt = lines.findIndex((line) => line.text === 'steps:');
  if (stepsAt === -1) throw new Error('the workflow has no steps: list');
  const listIndent = lines[stepsAt + 1]?.indent ?? 0;
  const steps: WorkflowStep[] = [];
  let step: WorkflowStep | undefined;
  let withIndent: number | undefined;
  let map: 'with' | 'env' = 'with';

  for (let index = stepsAt + 1; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.indent < listIndent || (line.indent === listIndent && !line.text.startsWith('- '))) break;
    let text = line.text;
    let keyIndent = line.indent;
    if (line.indent === listIndent) {
      step = { with: {}, env: {} };
      steps.push(step);
      withIndent = undefined;
      text = text.slice(2).trimStart();
      keyIndent = line.indent + 2;
    }
    const pair = /^([A-Za-z_-]+):(?:\s+(.*))?$/.exec(text);
    if (step === undefined || pair === null) throw new Error(`line ${line.number}: ${line.text} is not a key of a step`);
    const [, key = '', value] = pair;
    if (withIndent !== undefined && keyIndent > withIndent) {
      step[map][key] = plainValue(value ?? '', line);
      continue;
    }
    withIndent = undefined;
    if ((key === 'with' || key === 'env') && value === undefined) {
      withIndent = keyIndent;
      map = key;
    } else if (key === 'run' && (value === '|' || value === '|-')) {
      const block: string[] = [];
      while (index + 1 < lines.length && lines[index + 1]!.indent > keyIndent) index++;
      // The block is every raw line (blank ones included) up to the next meaningful line, less the block's indent.
      const body = rawLines.slice(line.number, lines[index]!.number);
      const blockIndent = Math.min(...body.filter((raw) => raw.trim() !== '').map((raw) => raw.length - raw.trimStart().length));
      for (const raw of body) block.push(raw.slice(blockIndent));
      step.run = block.join('\n');
    } else if (STEP_KEYS.has(key) && value !== undefined) {
      step[key as 'name' | 'uses' | 'if' | 'run'] = plainValue(value, line);
    } else {
      throw new Error(`line ${line.number}: the step key ${key} is not one this reader takes`);
    }
  }
  return steps;
}
