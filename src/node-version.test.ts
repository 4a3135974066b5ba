import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE_VERSION, unsupportedNodeReason } from './node-version.js';

describe('the Node.js version guard', () => {
  it('refuses a Node.js older than 22.12 and names both versions', () => {
    expect(unsupportedNodeReason({ node: '20.20.2' })).toBe('game-service-harness needs Node.js >= 22.12; this is v20.20.2');
    expect(unsupportedNodeReason({ node: '22.11.0' })).toBe('game-service-harness needs Node.js >= 22.12; this is v22.11.0');
    expect(unsupportedNodeReason({ node: '18.19.1' })).toBeDefined();
  });

  it('accepts Node.js 22.12 and every later release', () => {
    for (const node of ['22.12.0', '22.20.1', '23.0.0', '24.21.0', '30.1.0']) expect(unsupportedNodeReason({ node })).toBeUndefined();
  });

  it('leaves other runtimes alone: browsers, and Deno and Bun whatever Node.js version they claim', () => {
    expect(unsupportedNodeReason(undefined)).toBeUndefined();
    expect(unsupportedNodeReason({ node: '20.11.1', deno: '2.1.4' })).toBeUndefined();
    expect(unsupportedNodeReason({ node: '20.0.0', bun: '1.2.0' })).toBeUndefined();
  });

  it('agrees with engines.node of both published packages', () => {
    for (const manifest of ['../package.json', '../packages/mock/package.json']) {
      const { engines } = JSON.parse(readFileSync(new URL(manifest, import.meta.url), 'utf8')) as { engines: { node: string } };
      expect(engines.node, manifest).toBe(`>=${MINIMUM_NODE_VERSION}`);
    }
  });
});
