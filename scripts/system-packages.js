// The first step of `npm test`: the Debian packages the tests drive for real, installed when this machine
// can (root with apt-get, as in CI), else a stop at once with the command that installs them.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Each package, and the program whose presence says it is installed. */
const PACKAGES = [
  { name: 'chromium', program: '/usr/bin/chromium', usedBy: 'test/browser.test.ts' },
  { name: 'redis-server', program: '/usr/bin/redis-server', usedBy: 'test/stores/redis-cluster.test.ts' },
  // The system Node.js: older than the package supports, it proves the entry points' version guard.
  { name: 'nodejs', program: '/usr/bin/node', usedBy: 'test/package.test.ts' },
];

const missing = PACKAGES.filter((entry) => !existsSync(entry.program));
if (missing.length > 0) {
  const names = missing.map((entry) => entry.name);
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(
      `npm test needs Debian's ${names.join(' and ')} (${missing.map((entry) => entry.usedBy).join(', ')}). Install with:\n  sudo apt-get install -y --no-install-recommends ${names.join(' ')}`,
    );
    process.exit(1);
  }
  const apt = (...args) => execFileSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  console.log(`Installing Debian's ${names.join(' and ')} for the tests that drive them…`);
  try {
    apt('install', '-y', '--no-install-recommends', ...names);
  } catch {
    // A stale package index: refresh it once, then try again.
    apt('update');
    apt('install', '-y', '--no-install-recommends', ...names);
  }
}
