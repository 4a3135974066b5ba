import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';

interface Manifest {
  version: string;
  exports: Record<string, { types: string; default: string } | string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
}

const readManifest = async (path: string) => JSON.parse(await readFile(join(ROOT, path), 'utf8')) as Manifest;
const [harness, mock] = await Promise.all([readManifest('package.json'), readManifest('packages/mock/package.json')]);
const IN_PROCESS_ENTRIES = ['./msw', './browser', './fetch', './spec'];

/** The packages the mock package's entry points import, by name (msw/browser is msw), as a bundler finds them. */
async function packagesImportedBy(entryPoints: string[]): Promise<string[]> {
  const { metafile } = await build({
    entryPoints,
    bundle: true,
    packages: 'external',
    platform: 'neutral',
    write: false,
    metafile: true,
    logLevel: 'silent',
    outdir: 'unused',
  });
  const specifiers = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((found) => found.external).map((found) => found.path));
  return [
    ...new Set(
      specifiers.map((specifier) =>
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
    ),
  ].sort();
}

describe('@game-service-harness/mock, built from the same sources as game-service-harness', () => {
  it('has the same version (npm version sets both)', () => {
    expect(mock.version).toBe(harness.version);
  });

  it("depends on exactly what its entry points import besides msw, at the harness's ranges", async () => {
    const sources = ['src/msw.ts', 'src/browser.ts', 'src/fetch.ts', 'src/spec/index.ts'];
    const imported = await packagesImportedBy(sources.map((source) => join(ROOT, source)));

    expect(Object.keys(mock.dependencies).sort()).toEqual(imported.filter((name) => name !== 'msw'));
    for (const [name, range] of Object.entries(mock.dependencies)) expect(range, name).toBe(harness.dependencies[name]);
    expect(mock.peerDependencies).toEqual(harness.peerDependencies);
  });

  it("exports the harness's in-process entry points, from the same modules", () => {
    expect(Object.keys(mock.exports).filter((entry) => entry !== './package.json')).toEqual(IN_PROCESS_ENTRIES);
    for (const entry of IN_PROCESS_ENTRIES) {
      expect(mock.exports[entry], entry).toEqual({
        types: (harness.exports[entry] as { types: string }).types.replace('./dist/src/', './dist/'),
        default: (harness.exports[entry] as { default: string }).default.replace('./dist/src/', './dist/'),
      });
    }
  });

  it('ships the same LICENSE', async () => {
    const [license, copy] = await Promise.all(['LICENSE', 'packages/mock/LICENSE'].map((path) => readFile(join(ROOT, path), 'utf8')));
    expect(copy).toBe(license);
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 game-service-harness contributors\n/);
  });
});
