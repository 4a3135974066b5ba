/**
 * The child side of a bench server: listen on a free loopback port, tell the parent which one,
 * report CPU time or memory on request, and exit when told to or when the parent goes away.
 */
export function serveForBench(server) {
  server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
  process.on('message', (message) => {
    if (message.type === 'cpu') {
      process.send({ type: 'cpu', usage: process.cpuUsage(), at: performance.now() });
    } else if (message.type === 'memory') {
      // maxRSS is in KiB: the peak resident set since the process started.
      process.send({ type: 'memory', rss: process.memoryUsage.rss(), maxRss: process.resourceUsage().maxRSS * 1024 });
    } else if (message.type === 'stop') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
}
