// store-server.js in N node:cluster workers on one port, seen by the parent as one server: the listening
// port, delivered codes and the summed CPU time of the workers.
// Usage: cluster-server.js <workers> <store-server.js arguments…>
import cluster from 'node:cluster';

const [count, ...args] = process.argv.slice(2);
cluster.setupPrimary({ exec: new URL('./store-server.js', import.meta.url).pathname, args });
const workers = Array.from({ length: Number(count) }, () => cluster.fork());

let listening = 0;
let cpuReplies = [];
for (const worker of workers) {
  worker.on('message', (message) => {
    if (message.type === 'listening' && ++listening === workers.length) process.send(message);
    else if (message.type === 'otp') process.send(message);
    else if (message.type === 'cpu') {
      cpuReplies.push(message.usage);
      if (cpuReplies.length < workers.length) return;
      const usage = { user: 0, system: 0 };
      for (const reply of [...cpuReplies, process.cpuUsage()]) {
        usage.user += reply.user;
        usage.system += reply.system;
      }
      cpuReplies = [];
      process.send({ type: 'cpu', usage, at: performance.now() });
    }
  });
}

process.on('message', (message) => {
  if (message.type === 'cpu') for (const worker of workers) worker.send({ type: 'cpu' });
  else if (message.type === 'stop') {
    for (const worker of workers) worker.send({ type: 'stop' });
    cluster.on('exit', () => Object.keys(cluster.workers).length === 0 && process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
