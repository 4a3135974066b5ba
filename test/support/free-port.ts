import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the system takes the ports of servers that listen on port 0 (Linux; elsewhere IANA's dynamic range). */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low !== undefined && high !== undefined && low > 1024) return [low, high];
  } catch {
    // Not Linux: the dynamic range.
  }
  return [49152, 65535];
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A loopback port nothing listens on now, for a server the test starts in another process (a documented command
 * that names its port). It is drawn below the ephemeral range: a port the system handed out for port 0 could be
 * handed to another process's server (a suite running beside this one) before the test's server takes it.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = Math.min(20_000, ephemeralLow - 1_000);
  for (;;) {
    const port = low + Math.floor(Math.random() * (ephemeralLow - low));
    if (await canListen(port)) return port;
  }
}
