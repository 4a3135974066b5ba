// The mock as the CLI starts it with --trust-proxy and --freeze-clock: every request of a flood falls in one
// rate-limit window. It reports its memory on request.
import { PACKAGE_VERSION } from '../../dist/src/version.js';
import { VirtualClock } from '../../dist/src/core/clock.js';
import { createService } from '../../dist/src/core/service.js';
import { createNodeServer } from '../../dist/src/hosts/node-http.js';
import { serveForBench } from './serve-for-bench.js';

const service = createService({
  version: PACKAGE_VERSION,
  clock: new VirtualClock({ frozen: true }),
  onOtp: () => {},
});
serveForBench(createNodeServer(service, { trustProxy: true }));
