import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the conformance suite', () => {
  it('imports nothing of the project but src/spec, so that it stays honest against a foreign server', () => {
    const reachesIntoSrc = sourceFiles(join(root, 'conformance')).flatMap((file) => {
      const imports = [...readFileSync(file, 'utf8').matchAll(/from\s+'([^']+)'/g)].map((match) => match[1]!);
      return imports
        .filter((specifier) => specifier.startsWith('.') && join(file, '..', specifier).startsWith(join(root, 'src')))
        .filter((specifier) => !join(file, '..', specifier).startsWith(join(root, 'src', 'spec')))
        .map((specifier) => `${relative(root, file)} imports ${specifier}`);
    });
    expect(reachesIntoSrc).toEqual([]);
  });
});
