/** Edits that turn one into the other: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(from: string, to: string): number {
  // rows[i][j]: the edits from the first i characters of `from` to the first j of `to`.
  const rows = Array.from({ length: from.length + 1 }, (_, i) => Array.from({ length: to.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= from.length; i++) {
    for (let j = 1; j <= to.length; j++) {
      const substitution = from[i - 1] === to[j - 1] ? 0 : 1;
      let edits = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + substitution);
      if (i > 1 && j > 1 && from[i - 1] === to[j - 2] && from[i - 2] === to[j - 1]) edits = Math.min(edits, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = edits;
    }
  }
  return rows[from.length]![to.length]!;
}

/**
 * The names `typed` most likely stands for: the nearest, if a slip of the keys away (an edit for every three
 * characters typed, at least one, at most three); else the only name that begins with it.
 */
export function nearestNames(typed: string, names: readonly string[]): string[] {
  const allowed = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  const distances = names.map((name) => ({ name, edits: editDistance(typed, name) }));
  const fewest = Math.min(...distances.map(({ edits }) => edits));
  if (fewest <= allowed) return distances.filter(({ edits }) => edits === fewest).map(({ name }) => name);
  const extending = typed.length >= 3 ? names.filter((name) => name.startsWith(typed)) : [];
  return extending.length === 1 ? extending : [];
}

/** `; did you mean X?` (or `X or Y`) after a message about `typed`, written as `shown` writes a name; '' when none is near. */
export function didYouMean(typed: string, names: readonly string[], shown: (name: string) => string = (name) => name): string {
  const near = nearestNames(typed, names);
  return near.length > 0 ? `; did you mean ${near.map(shown).join(' or ')}?` : '';
}

/** A value that is none of a flag's choices, as a usage message: the choices, and the one it likely misspells. */
export function invalidChoice(flag: string, value: unknown, choices: readonly unknown[]): string {
  const names = choices.map(String);
  return `--${flag} ${JSON.stringify(value)} is not one of ${names.join(', ')}${didYouMean(String(value), names)}`;
}
