#!/usr/bin/env node
// The version check comes before the CLI is loaded: on an older Node.js its modules fail to load (node:sqlite).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { unsupportedNodeReason } from '../dist/src/node-version.js';

const reason = unsupportedNodeReason();
if (reason === undefined) {
  const { main } = await import('../dist/src/cli/main.js');
  process.exitCode = await main(process.argv.slice(2));
} else {
  console.error(`game-service: ${reason}`);
  // In a checkout, `npm ci` installed a Node that can: the npm scripts and npx use it, a bare `node` does not.
  const installed = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
  if (existsSync(installed))
    console.error(`game-service: run it with the Node that npm ci installed here: ${installed} bin/game-service.js …, or npx game-service …`);
  process.exitCode = 2;
}
