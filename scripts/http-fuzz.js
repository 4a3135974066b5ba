// The HTTP property test of `npm test` (test/reliability/http-input.property.test.ts) with 100,000 generated
// requests instead of its sample: no 500, no hang, /health still answering. FC_SEED replays a run.
// Usage: node scripts/http-fuzz.js [inputs]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const inputs = process.argv[2] ?? '100000';
const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const run = spawnSync(process.execPath, [vitest, 'run', 'test/reliability/http-input.property.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, HTTP_FUZZ_INPUTS: inputs },
});
process.exitCode = run.status ?? 1;
