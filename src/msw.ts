/** `game-service-harness/msw`: the mock as msw handlers, with typed control calls. No node:* imports. */
import './node-version-guard.js';
export * from './common-exports.js';
export { createMswMock, type MswMock, type MswMockOptions } from './hosts/msw.js';
