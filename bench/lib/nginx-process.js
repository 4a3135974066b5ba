import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, processCpuMicros, stopChild } from './loopback-process.js';

export const NGINX = '/usr/sbin/nginx';

/** Why the nginx floor cannot run here, or undefined when it can. */
export const nginxMissing = () => (existsSync(NGINX) ? undefined : `${NGINX} is missing (apt-get install nginx-light)`);

/** One worker, no log, a keep-alive upstream: nginx as a proxy at its cheapest, every path of its own in `dir`. */
function config(dir, port, target) {
  return `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr error;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream target { server ${target.host}; keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://target;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host ${target.host};
    }
  }
}
`;
}

/** Waits until something answers on the port (nginx says nothing when it is ready). */
async function answering(url, child) {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}) before it answered`);
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not answer on ${url} within 5 s`);
}

/** nginx in front of `target` (a URL) on a free loopback port, with `cpu()` as the bench's servers give it. */
export async function startNginx(target) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'game-service-bench-nginx-'));
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config(dir, port, new URL(target)));
  const child = spawn(NGINX, ['-c', file, '-p', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await answering(`${url}/health`, child);
  return {
    url,
    pid: child.pid,
    async cpu() {
      return { cpuMicros: processCpuMicros(child.pid), at: performance.now() };
    },
    stop: () => stopChild(child, dir),
  };
}
