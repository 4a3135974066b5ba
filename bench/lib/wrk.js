import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const WRK = '/usr/bin/wrk';
const TASKSET = '/usr/bin/taskset';

/** Why the wrk generator cannot run here, or undefined when it can. */
export const wrkMissing = () => (existsSync(WRK) ? undefined : `${WRK} is missing (sudo apt-get install -y wrk)`);

/**
 * The cores the bench's processes are pinned to: the server on one, the load generator on another, a helper
 * (redis-server) on a third where there is one, else beside the generator; undefined where nothing can pin.
 */
export function benchCores() {
  if (!existsSync(TASKSET) || availableParallelism() < 2) return undefined;
  return { server: 0, generator: 1, helper: availableParallelism() > 2 ? 2 : 1 };
}

/** Pins a running process, all its threads, to one core. */
export function pinProcess(pid, core) {
  execFileSync(TASKSET, ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
}

const luaString = (text) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * The script wrk runs: every request of the list in turn across all connections, from `start` (the first
 * argument after `--`), then one JSON line of the figures when done. os.clock() is wrk's CPU time, all threads:
 * read again at the end of the thread's init (`readyCpu`), it parts the load's CPU time from what reading and
 * formatting a long list of requests took before the first was sent.
 */
function script(requests) {
  const entries = requests.map(({ method, path, headers = {} }) => {
    const fields = Object.entries(headers).map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`);
    return `{ ${luaString(method)}, ${luaString(path)}, { ${fields.join(', ')} } }`;
  });
  return `local list = {
${entries.join(',\n')}
}
local formatted = {}
local count = #list
local next = 0
local threads = {}
setup = function(thread) table.insert(threads, thread) end
init = function(args)
  for i, r in ipairs(list) do formatted[i - 1] = wrk.format(r[1], r[2], r[3]) end
  next = tonumber(args[1] or "0") % count
  readyCpu = os.clock()
end
request = function()
  local chosen = formatted[next]
  next = (next + 1) % count
  return chosen
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationMicros":%d,"non2xx":%d,"errors":%d,"timeouts":%d,"p50Micros":%d,"p99Micros":%d,"cpuSeconds":%.3f,"readyCpuSeconds":%.3f}\\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write, e.timeout, latency:percentile(50), latency:percentile(99), os.clock(), threads[1]:get("readyCpu")))
end
`;
}

/**
 * Load from wrk (one thread, the given connections, no pipelining), for `durationSeconds`: `requests` sent in
 * turn from index `start`, on `core` when given. The figures are those `summarize` gives from autocannon's.
 */
export async function runWrk({ url, requests, connections, durationSeconds, start = 0, core }) {
  const dir = mkdtempSync(join(tmpdir(), 'game-service-bench-wrk-'));
  try {
    const file = join(dir, 'requests.lua');
    writeFileSync(file, script(requests));
    const wrk = [WRK, '-t1', `-c${connections}`, `-d${durationSeconds}s`, '--timeout', '5s', '-s', file, url, '--', String(start)];
    const [command, ...args] = core === undefined ? wrk : [TASKSET, '-c', String(core), ...wrk];
    const output = await new Promise((resolve, reject) =>
      execFile(command, args, { encoding: 'utf8', maxBuffer: 1 << 20 }, (error, stdout, stderr) =>
        error ? reject(new Error(`wrk failed: ${stderr || error.message}`)) : resolve(stdout),
      ),
    );
    const line = output.split('\n').find((text) => text.startsWith('{"requests"'));
    if (line === undefined) throw new Error(`wrk printed no figures:\n${output}`);
    const figures = JSON.parse(line);
    const seconds = figures.durationMicros / 1e6;
    return {
      requests: figures.requests,
      durationSeconds: seconds,
      requestsPerSecond: Math.round(figures.requests / seconds),
      latencyMs: { p50: figures.p50Micros / 1000, p99: figures.p99Micros / 1000 },
      non2xx: figures.non2xx,
      // wrk counts answers outside 2xx and 3xx, without their statuses.
      statusCodes: figures.non2xx > 0 ? { 'not 2xx': figures.non2xx } : {},
      errors: figures.errors,
      timeouts: figures.timeouts,
      generatorCpuMs: (figures.cpuSeconds - figures.readyCpuSeconds) * 1000,
      generatorSetupCpuMs: figures.readyCpuSeconds * 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
