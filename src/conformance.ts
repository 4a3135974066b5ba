/** `game-service-harness/conformance`: the suite and the fuzzer (conformance/), behind the Node.js version guard. */
import './node-version-guard.js';
export * from '../conformance/index.js';
