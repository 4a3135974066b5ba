#!/usr/bin/env node
// The version check comes before the CLI is loaded: on an older Node.js its modules fail to load (node:sqlite).
import { unsupportedNodeReason } from '../dist/src/node-version.js';

const reason = unsupportedNodeReason();
if (reason === undefined) {
  const { main } = await import('../dist/src/cli/main.js');
  process.exitCode = await main(process.argv.slice(2));
} else {
  console.error(`game-service: ${reason}`);
  process.exitCode = 2;
}
