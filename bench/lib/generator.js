import { runLoad, summarize } from './load.js';
import { runWrk } from './wrk.js';

/** Longest list autocannon is given as its own, which each connection cycles from the start. */
const AUTOCANNON_LIST_MAX = 100;

/**
 * A long list (players read in turn) as one request that autocannon rebuilds each time from the next entry:
 * a global round robin, where autocannon's own list would have every connection start at the first entry.
 * Rebuilding costs autocannon CPU time, which is why wrk is the default generator.
 */
function autocannonRequests(load) {
  const { requests, position } = load;
  if (requests.length <= AUTOCANNON_LIST_MAX) return requests;
  const setupRequest = (request) => {
    const next = requests[position.next++ % requests.length];
    return Object.assign(request, { method: next.method, path: next.path, headers: { ...next.headers } });
  };
  return [{ ...requests[0], setupRequest }];
}

/**
 * One slice of load from the load's generator (autocannon unless `generator` is 'wrk'): `requests` sent in turn,
 * a long list continuing where the last slice of the same load stopped (`position`). The figures are
 * `summarize`'s, with the generator's CPU time while it sent (`cpuMs`) and before (`setupCpuMs`), and the time it sent for.
 */
export async function generateLoad(load, durationSeconds) {
  if (load.generator === 'wrk') {
    const { generatorCpuMs, generatorSetupCpuMs, ...result } = await runWrk({ ...load, durationSeconds, start: load.position.next });
    load.position.next += result.requests;
    return { ...result, generator: { cpuMs: generatorCpuMs, setupCpuMs: generatorSetupCpuMs, wallMs: result.durationSeconds * 1000 } };
  }
  const [before, startedAt] = [process.cpuUsage(), performance.now()];
  const result = summarize(await runLoad({ ...load, requests: autocannonRequests(load), durationSeconds }));
  const used = process.cpuUsage(before);
  return { ...result, generator: { cpuMs: (used.user + used.system) / 1000, setupCpuMs: 0, wallMs: performance.now() - startedAt } };
}
