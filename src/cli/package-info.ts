import { readFileSync } from 'node:fs';

// The package root is two levels above src/cli (tests) and three above dist/src/cli (built).
const levels = import.meta.url.includes('/dist/src/') ? '../../../' : '../../';
const packageJson = JSON.parse(readFileSync(new URL(`${levels}package.json`, import.meta.url), 'utf8')) as { version: string };

export const PACKAGE_VERSION = packageJson.version;
