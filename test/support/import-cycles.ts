/** Each file and the files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The strongly connected groups of files (Tarjan), each sorted; a file alone counts only when it imports itself. */
function tangledGroups(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(next)!));
      } else if (onStack.has(next)) {
        lowLink.set(file, Math.min(lowLink.get(file)!, index.get(next)!));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      group.push(member);
      if (member === file) break;
    }
    if (group.length > 1 || graph.get(file)?.includes(file)) groups.push(group.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return groups;
}

/** Every elementary cycle within one group, each starting at its first file in sorted order. */
function cyclesWithin(graph: ImportGraph, group: readonly string[]): string[][] {
  const cycles: string[][] = [];
  group.forEach((start, startIndex) => {
    const allowed = new Set(group.slice(startIndex));
    const path = [start];
    const onPath = new Set(path);
    const walk = (file: string) => {
      for (const next of graph.get(file) ?? []) {
        if (next === start) cycles.push([...path, start]);
        else if (allowed.has(next) && !onPath.has(next)) {
          path.push(next);
          onPath.add(next);
          walk(next);
          onPath.delete(next);
          path.pop();
        }
      }
    };
    walk(start);
  });
  return cycles;
}

/** The import cycles of a graph, each as a chain of files that ends where it starts. */
export function findCycles(graph: ImportGraph): string[][] {
  return tangledGroups(graph).flatMap((group) => cyclesWithin(graph, group));
}
