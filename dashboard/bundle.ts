// The dashboard's files as a module of strings, so that the core serves them without reading any file
// (it imports nothing from node:*, and runs in browsers too). `npm run dashboard` writes the module;
// a test fails when it differs from what these sources give.
import { readFile, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

const HERE = new URL('./', import.meta.url);
export const ASSETS_MODULE = 'src/core/control/dashboard-assets.ts';

async function script(): Promise<string> {
  const result = await build({
    entryPoints: [new URL('main.ts', HERE).pathname],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** The source of ASSETS_MODULE. */
export async function dashboardAssetsModule(): Promise<string> {
  const [html, css, js] = await Promise.all([readFile(new URL('index.html', HERE), 'utf8'), readFile(new URL('dashboard.css', HERE), 'utf8'), script()]);
  return [
    '// Generated from dashboard/ by `npm run dashboard`; do not edit.',
    '',
    '/** The dashboard page and its files, by the name each is served under /__mock/ui/. */',
    'export const DASHBOARD_FILES = {',
    `  html: ${JSON.stringify(html)},`,
    `  'dashboard.css': ${JSON.stringify(css)},`,
    `  'dashboard.js': ${JSON.stringify(js)},`,
    '} as const;',
    '',
  ].join('\n');
}

if (import.meta.main) {
  await writeFile(new URL(`../${ASSETS_MODULE}`, HERE), await dashboardAssetsModule());
  console.log(`wrote ${ASSETS_MODULE}`);
}
