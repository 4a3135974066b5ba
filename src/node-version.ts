/** The oldest Node.js the package runs on: msw needs Promise.withResolvers, the state file node:sqlite. */
export const MINIMUM_NODE_VERSION = '22.12';

interface RuntimeVersions {
  node?: string | undefined;
  bun?: string | undefined;
  deno?: string | undefined;
}

/**
 * Why this runtime cannot run the package, or undefined when it can. Only Node.js is judged: browsers have no
 * `process`, and Deno and Bun report a Node.js version of their own compatibility layer, not of their features.
 */
export function unsupportedNodeReason(versions: RuntimeVersions | undefined = globalThis.process?.versions): string | undefined {
  if (versions?.node === undefined || versions.bun !== undefined || versions.deno !== undefined) return undefined;
  const [major = 0, minor = 0] = versions.node.split('.').map(Number);
  const [minimumMajor = 0, minimumMinor = 0] = MINIMUM_NODE_VERSION.split('.').map(Number);
  if (major > minimumMajor || (major === minimumMajor && minor >= minimumMinor)) return undefined;
  return `game-service-harness needs Node.js >= ${MINIMUM_NODE_VERSION}; this is v${versions.node}`;
}
