// The dashboard's files as a module of strings, so that the core serves them without reading any file
// (it imports nothing from node:*, and runs in browsers too). `npm run dashboard` writes the module;
// a test fails when it differs from what these sources give.
import { readFile, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

const HERE = new URL('./', import.meta.url);
export const ASSETS_MODULE = 'src/core/control/dashboard-assets.ts';

type ControlRoutes = typeof import('../src/spec/control-routes.js')['CONTROL_ROUTES'];

/**
 * The control API's declaration. Node runs this script with its types stripped, and does not map the `.js`
 * of a static import to the `.ts` source; the declaration imports nothing, so its source loads as it is.
 */
async function controlRoutes(): Promise<ControlRoutes> {
  const declaration = (await import(new URL('../src/spec/control-routes.ts', HERE).href)) as { CONTROL_ROUTES: ControlRoutes };
  return declaration.CONTROL_ROUTES;
}

/** The page with `{{path KEY}}` (a control route's path) and `{{route KEY}}` (its method and path) filled in. */
function fillPage(html: string, routes: ControlRoutes): string {
  return html.replace(/\{\{(path|route) (\w+)\}\}/g, (placeholder, form: string, key: string) => {
    const route = Object.hasOwn(routes, key) ? routes[key as keyof ControlRoutes] : undefined;
    if (route === undefined) throw new Error(`index.html names no control route in ${placeholder}`);
    return form === 'path' ? route.pattern : `${route.method} ${route.pattern}`;
  });
}

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
  const [template, css, js, routes] = await Promise.all([
    readFile(new URL('index.html', HERE), 'utf8'),
    readFile(new URL('dashboard.css', HERE), 'utf8'),
    script(),
    controlRoutes(),
  ]);
  const html = fillPage(template, routes);
  return [
    '// Generated from dashboard/ by `npm run dashboard`; do not edit.',
    '',
    `/** The dashboard page and its files, by the name each is served under ${routes.dashboard.pattern}/. */`,
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
