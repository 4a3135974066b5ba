// The proxy under test, started as `game-service proxy --target URL --game-origin ORIGIN` starts it (startProxy,
// the findings kept in its log, read by the parent on /__proxy/findings).
// Usage: proxy-server.js <target URL> <game origin>
import { startProxy } from '../../dist/conformance/proxy/proxy-server.js';
import { answerParent } from './serve-for-bench.js';

const [target, gameOrigin] = process.argv.slice(2);
const proxy = await startProxy({ target: new URL(target), port: 0, host: '127.0.0.1', gameOrigins: [gameOrigin] });
answerParent(Number(new URL(proxy.url).port), () => proxy.close());
