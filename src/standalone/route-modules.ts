import { dirname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RouteHandler } from '../core/user-routes/user-route.js';
import { CliError } from './cli-error.js';
import type { RouteConfig } from '../core/user-routes/route-schema.js';
import type { ProblemList } from './problems.js';

/** Stands in for a module's handler until resolveMockOptions has loaded it; never called once it has. */
export const HANDLER_NOT_LOADED: RouteHandler = () => {
  throw new Error('the route module was not loaded: resolve the options with resolveMockOptions or loadMockConfig');
};

/** How a listing names a handler: the module as the file wrote it, and its export. */
export function handlerSource(route: { module: string; handler?: string | undefined }): string {
  return `${route.module}#${route.handler ?? 'default'}`;
}

function exportNames(module: Record<string, unknown>): string {
  const names = Object.keys(module).filter((name) => typeof module[name] === 'function');
  return names.length === 0 ? 'it exports no function' : `its function exports: ${names.join(', ')}`;
}

/**
 * Imports the module of each route that names one (relative to the config file; a .ts module runs on a Node
 * that strips types, 22.18 or later), each module once; `reading` numbers a reading of a watched file. Returns each route's handler by its index in the file,
 * and notes every module that cannot be loaded and every export that is not a function, by its JSON path.
 */
export async function loadRouteHandlers(
  configPath: string,
  routes: readonly RouteConfig[],
  problems: ProblemList,
  reading?: number,
): Promise<Map<number, RouteHandler>> {
  const modules = new Map<string, Promise<Record<string, unknown> | Error>>();
  const handlers = new Map<number, RouteHandler>();
  const source = `--config ${configPath}`;
  for (const [index, route] of routes.entries()) {
    if (route.module === undefined || route.module === null) continue;
    const file = isAbsolute(route.module) ? route.module : resolve(dirname(configPath), route.module);
    if (!modules.has(file)) {
      modules.set(
        file,
        // Node keeps a module by its URL: a query of its own makes a reading import the file as it is now.
        import(`${pathToFileURL(file).href}${reading === undefined ? '' : `?reading=${reading}`}`).then(
          (loaded: Record<string, unknown>) => loaded,
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        ),
      );
    }
    const loaded = await modules.get(file)!;
    if (loaded instanceof Error) {
      problems.add(new CliError('GS_CONFIG', `${source}: /routes/${index}/module: cannot load ${route.module}: ${loaded.message.split('\n')[0]}`));
      continue;
    }
    const name = route.handler ?? 'default';
    const handler = loaded[name];
    if (typeof handler !== 'function') {
      const what = handler === undefined ? `has no export ${JSON.stringify(name)}` : `exports ${JSON.stringify(name)} as a ${typeof handler}, not a function`;
      problems.add(new CliError('GS_CONFIG', `${source}: /routes/${index}/handler: ${route.module} ${what}; ${exportNames(loaded)}`));
      continue;
    }
    handlers.set(index, handler as RouteHandler);
  }
  return handlers;
}
