import { readFileSync } from 'node:fs';

// Two levels up from both src/cli (tests) and dist/cli (built) is the package root.
const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

export const PACKAGE_VERSION = packageJson.version;
