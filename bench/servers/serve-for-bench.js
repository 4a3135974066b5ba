/**
 * The child side of a bench server: listen on a free loopback port, tell the parent which one,
 * report CPU time or memory on request, and exit when told to or when the parent goes away.
 */
export function serveForBench(server) {
  server.listen(0, '127.0.0.1', () =>
    answerParent(server.address().port, () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
}

/** The same for a server already listening on `port`, closed by `close` (which returns a promise). */
export function answerParent(port, close) {
  process.send({ type: 'listening', port });
  process.on('message', (message) => {
    if (message.type === 'cpu') {
      process.send({ type: 'cpu', usage: process.cpuUsage(), at: performance.now() });
    } else if (message.type === 'memory') {
      // maxRSS is in KiB: the peak resident set since the process started.
      process.send({ type: 'memory', rss: process.memoryUsage.rss(), maxRss: process.resourceUsage().maxRSS * 1024 });
    } else if (message.type === 'stop') {
      close().then(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));
}
