/** One step of a pattern: a literal character, any run of characters, one non-slash character, or a run of them. */
type Step = string | 'ANY_RUN' | 'SEGMENT_CHAR' | 'SEGMENT_RUN';

function steps(pattern: string): Step[] {
  return pattern.split(/(\*+|:[A-Za-z_][A-Za-z0-9_]*)/).flatMap((part): Step[] => {
    if (part.startsWith('*')) return ['ANY_RUN'];
    if (part.startsWith(':')) return ['SEGMENT_CHAR', 'SEGMENT_RUN'];
    return [...part];
  });
}

const isRun = (step: Step | undefined) => step === 'ANY_RUN' || step === 'SEGMENT_RUN';

/**
 * A path pattern as a person writes one: `*` stands for any run of characters, slashes included
 * (`/api/*`, `*`), `:name` for one segment (`/api/players/:email`); anything else is literal.
 * Matched by walking all positions of the pattern at once (no regular expression), so that a pattern
 * sent to the control API costs at most its length times the path's, whatever its wildcards.
 */
export function pathPattern(pattern: string): (path: string) => boolean {
  const plan = steps(pattern);
  if (plan.every((step) => step.length === 1)) return (path) => path === pattern;
  const size = plan.length;
  /** Positions reached, widened by the runs that may match nothing. */
  const close = (reached: Uint8Array) => {
    for (let at = 0; at < size; at++) if (reached[at] === 1 && isRun(plan[at])) reached[at + 1] = 1;
  };
  return (path) => {
    let reached = new Uint8Array(size + 1);
    reached[0] = 1;
    close(reached);
    for (const char of path) {
      const next = new Uint8Array(size + 1);
      let any = false;
      for (let at = 0; at < size; at++) {
        if (reached[at] !== 1) continue;
        const step = plan[at]!;
        const segmentChar = char !== '/';
        if (step === 'ANY_RUN' || (step === 'SEGMENT_RUN' && segmentChar)) next[at] = 1;
        else if (step === char || (step === 'SEGMENT_CHAR' && segmentChar)) next[at + 1] = 1;
        else continue;
        any = true;
      }
      if (!any) return false;
      close(next);
      reached = next;
    }
    return reached[size] === 1;
  };
}
