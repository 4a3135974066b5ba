// Run by `npm version`: writes package.json's new version into src/version.ts, which every host reads.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const file = new URL('src/version.ts', root);
const source = readFileSync(file, 'utf8').replace(/PACKAGE_VERSION = '[^']*'/, `PACKAGE_VERSION = '${version}'`);
writeFileSync(file, source);
