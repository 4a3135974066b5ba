/**
 * Imported first by every entry point: ES modules run their imports in order, so an older Node.js stops here with
 * the reason instead of failing deep inside a dependency (msw: "Promise.withResolvers is not a function").
 */
import { unsupportedNodeReason } from './node-version.js';

const reason = unsupportedNodeReason();
if (reason !== undefined) throw new Error(reason);
