/**
 * The child side of a bench server: listen on a free loopback port, tell the parent which one,
 * report CPU time on request, and exit when told to or when the parent goes away.
 */
export function serveForBench(server) {
  server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
  process.on('message', (message) => {
    if (message.type === 'cpu') {
      process.send({ type: 'cpu', usage: process.cpuUsage(), at: performance.now() });
    } else if (message.type === 'stop') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
}
