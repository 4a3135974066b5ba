import { fork } from 'node:child_process';

// Seeding 30,000 players on Redis takes seconds, more on a busy machine.
const START_TIMEOUT_MS = 60_000;

/**
 * Starts a bench server (a file in bench/servers) in its own process, so that it does not share
 * a core with the load generator. Resolves once it listens.
 */
export async function startServer(name, args = []) {
  const child = fork(new URL(`../servers/${name}`, import.meta.url), args, {
    execPath: process.execPath,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const codes = new Map();
  const codeWaiters = new Map();
  let cpuWaiter;
  let memoryWaiter;
  let exited = false;

  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running, where it would keep the bench from exiting.
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before listening (code ${code}, signal ${signal})`));
    });
    child.once('error', reject);
    child.on('message', (message) => {
      if (message.type === 'listening') {
        clearTimeout(timer);
        resolve(message.port);
      } else if (message.type === 'otp') {
        const waiter = codeWaiters.get(message.email);
        codeWaiters.delete(message.email);
        if (waiter === undefined) codes.set(message.email, message.code);
        else waiter(message.code);
      } else if (message.type === 'cpu') {
        cpuWaiter?.(message);
      } else if (message.type === 'memory') {
        memoryWaiter?.(message);
      }
    });
  });
  child.once('exit', (code, signal) => {
    exited = true;
    cpuWaiter?.({ error: new Error(`${name} exited during the benchmark (code ${code}, signal ${signal})`) });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,

    /** The code the server delivered for this address (it may arrive before or after the HTTP answer). */
    code(email) {
      const known = codes.get(email);
      codes.delete(email);
      return known !== undefined ? Promise.resolve(known) : new Promise((resolve) => codeWaiters.set(email, resolve));
    },

    /** CPU time (µs) the server has used so far, and its own monotonic time (ms). */
    cpu() {
      if (exited) return Promise.reject(new Error(`${name} is not running`));
      return new Promise((resolve, reject) => {
        cpuWaiter = ({ usage, at, error }) => (error ? reject(error) : resolve({ cpuMicros: usage.user + usage.system, at }));
        child.send({ type: 'cpu' });
      });
    },

    /** The server's resident set size now and at its peak, in bytes. */
    memory() {
      if (exited) return Promise.reject(new Error(`${name} is not running`));
      return new Promise((resolve) => {
        memoryWaiter = ({ rss, maxRss }) => resolve({ rss, maxRss });
        child.send({ type: 'memory' });
      });
    },

    async stop() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await gone;
      clearTimeout(force);
    },
  };
}
