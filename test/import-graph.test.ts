import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, type ImportGraph } from './support/import-cycles.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHECKED_DIRECTORIES = ['src', 'conformance', 'dashboard'];

/** `import … from`, `import type … from`, `export … from` and bare `import '…'`, over several lines too. */
const IMPORT_SPECIFIER = /^\s*(?:import\s+(?:[\w$*{},\s]+?\s+from\s*)?|export\s+(?:type\s+)?(?:\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*)['"]([^'"]+)['"]/gm;

function sourceFiles(directory: string): string[] {
  return readdirSync(join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The project's files (relative to the root) each with the project files it imports; `.js` specifiers name `.ts` sources. */
function projectImportGraph(): ImportGraph {
  const files = CHECKED_DIRECTORIES.flatMap(sourceFiles);
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const specifiers = [...readFileSync(join(root, file), 'utf8').matchAll(IMPORT_SPECIFIER)].map((match) => match[1]!);
      const imported = specifiers
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) =>
          relative(root, join(root, dirname(file), specifier))
            .split('\\')
            .join('/')
            .replace(/\.js$/, '.ts'),
        )
        .filter((path) => known.has(path));
      return [file, [...new Set(imported)]];
    }),
  );
}

const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

describe('findCycles', () => {
  it('finds every cycle of a small graph, each as a chain back to its start', () => {
    const graph = graphOf({ a: ['b'], b: ['c', 'a'], c: ['a'], d: ['d'], e: ['a'] });
    expect(findCycles(graph)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['a', 'b', 'a'],
      ['d', 'd'],
    ]);
  });

  it('finds none in a graph without one, however its paths join', () => {
    const graph = graphOf({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [], e: ['a', 'd'] });
    expect(findCycles(graph)).toEqual([]);
  });
});

describe('the import graph of src, conformance and dashboard', () => {
  it('reads imports of every form, so that the check below sees the edges', () => {
    const graph = projectImportGraph();
    // import type … from, export * from, and an import over several lines
    expect(graph.get('conformance/fuzz/fuzz-report-json.ts')).toContain('conformance/fuzz/step.ts');
    expect(graph.get('src/conformance.ts')).toContain('conformance/index.ts');
    expect(graph.get('conformance/checks/rate-limits-headers.check.ts')).toContain('conformance/rules/model/index.ts');
  });

  it('has no import cycle, type-only imports included', () => {
    const cycles = findCycles(projectImportGraph()).map((cycle) => cycle.join(' -> '));
    expect(cycles).toEqual([]);
  });
  it("reads one way between conformance/'s folders: none imports another that imports it back, directly or through others", () => {
    expect(findCycles(folderGraph(projectImportGraph())).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('has check, check --recording, fuzz and the proxy side by side: none of them imports another', () => {
    const folders = folderGraph(projectImportGraph());
    const drivers = {
      check: ['conformance/run', 'conformance/checks'],
      recording: ['conformance/contract'],
      fuzz: ['conformance/fuzz'],
      proxy: ['conformance/proxy'],
    };
    const crossings = Object.entries(drivers).flatMap(([driver, own]) =>
      own.flatMap((folder) =>
        (folders.get(folder) ?? [])
          .filter((imported) => Object.entries(drivers).some(([other, theirs]) => other !== driver && theirs.includes(imported)))
          .map((imported) => `${folder} -> ${imported}`),
      ),
    );
    expect(crossings).toEqual([]);
  });
});

/** The folders of conformance/ (a file at its root stands alone) each with the other folders its files import. */
function folderGraph(files: ImportGraph): ImportGraph {
  const folderOf = (file: string) => (file.startsWith('conformance/') ? file.split('/').slice(0, 2).join('/') : undefined);
  const folders = new Map<string, Set<string>>();
  for (const [file, imported] of files) {
    const from = folderOf(file);
    if (from === undefined) continue;
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const to of imported.map(folderOf)) if (to !== undefined && to !== from) edges.add(to);
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}
