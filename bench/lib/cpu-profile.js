import { Session } from 'node:inspector/promises';

/** Runs `work` under V8's CPU profiler, sampling every `intervalMicros`; answers the profile. */
export async function profiled(work, intervalMicros = 50) {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: intervalMicros });
    await session.post('Profiler.start');
    await work();
    const { profile } = await session.post('Profiler.stop');
    return profile;
  } finally {
    session.disconnect();
  }
}

/** Where a frame is: its file below `root` (or its last two path segments) and line, one-based. */
function place({ url, lineNumber }, root) {
  if (url === '') return 'native';
  const file = url.startsWith(root) ? url.slice(root.length) : url.split('/').slice(-2).join('/');
  return `${file}:${lineNumber + 1}`;
}

/**
 * Self time by function, largest first, as shares of the samples that were not idle: `{ name, share }`, the
 * name being `function (file:line)` with files under `root` named from it.
 */
export function selfTimeByFunction(profile, root) {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const counts = new Map();
  let busy = 0;
  for (const id of profile.samples) {
    const frame = frames.get(id);
    if (frame.functionName === '(idle)') continue;
    busy++;
    const name = `${frame.functionName || '(anonymous)'} (${place(frame, root)})`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => ({ name, share: count / busy })).sort((a, b) => b.share - a.share);
}
