import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Service } from '../core/service.js';
import type { MockLogger } from './logger.js';
import { readConfigRoutes } from './mock-options.js';

/** An editor's save comes as several events (truncate, write, rename): the file is read once they settle. */
const SETTLE_MS = 150;

/**
 * `mock --config FILE --watch`: reads the file again each time it changes and serves its routes from then on. A
 * file with problems is refused, naming every one, and the routes served stay. The directory is watched, not the
 * file: an editor that saves by renaming a new file over the old one leaves a watch on the file itself deaf.
 * Returns what stops the watching.
 */
export function watchConfigRoutes(path: string, service: Service, logger: MockLogger): () => void {
  let readings = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let queue = Promise.resolve();
  const reload = async () => {
    const reading = ++readings;
    try {
      const { routes, actionCosts } = await readConfigRoutes(path, reading);
      const problems = service.routes.replaceAll(routes, actionCosts);
      if (problems.length > 0) logger.reloaded?.({ file: path, problems: problems.map((problem) => `/${problem.at} ${problem.message}`).join('; ') });
      else logger.reloaded?.({ file: path, routes: routes.length });
    } catch (error) {
      logger.reloaded?.({ file: path, problems: (error as Error).message });
    }
  };
  const watcher = watch(dirname(path), (_event, name) => {
    if (name !== null && name !== basename(path)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      queue = queue.then(reload);
    }, SETTLE_MS);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
