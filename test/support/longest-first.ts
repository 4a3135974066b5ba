import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest start first, in the order given: most wait (for a rate-limit window, npm, a
 * browser) and overlap with the rest, and none is left to run alone at the end. The others follow in vitest's
 * own order.
 */
export function longestFirst(paths: readonly string[]) {
  const rank = (spec: TestSpecification) => {
    const index = paths.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
    return index === -1 ? paths.length : index;
  };
  return class LongestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      return sorted
        .map((spec, index) => ({ spec, index }))
        .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
        .map(({ spec }) => spec);
    }
  };
}
