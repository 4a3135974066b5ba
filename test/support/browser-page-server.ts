import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from './cli.js';

const PAGES = fileURLToPath(new URL('../browser-pages/', import.meta.url));
/** msw's worker script, the file `msw init` copies into a web app's public folder. */
const MSW_WORKER_SCRIPT = `${ROOT}node_modules/msw/lib/mockServiceWorker.js`;

interface Asset {
  contentType: string;
  body: string;
}

export interface PageServer {
  /** The page's origin, e.g. http://127.0.0.1:41234: the mock must list it as a game origin. */
  origin: string;
  /** The page itself. */
  url: string;
  close(): Promise<void>;
}

/** Bundles a page script for the browser, the way a game client's build would, in memory. */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [`${PAGES}${entry}`],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/**
 * A static server on its own loopback port: page.html, the bundled `entry` as /page.js, and msw's worker
 * script at the root, where a service worker must live to control the whole origin.
 */
export async function startPageServer(entry: string): Promise<PageServer> {
  const javascript = 'text/javascript; charset=utf-8';
  const assets = new Map<string, Asset>([
    ['/', { contentType: 'text/html; charset=utf-8', body: await readFile(`${PAGES}page.html`, 'utf8') }],
    ['/page.js', { contentType: javascript, body: await bundle(entry) }],
    ['/mockServiceWorker.js', { contentType: javascript, body: await readFile(MSW_WORKER_SCRIPT, 'utf8') }],
  ]);
  const server = createServer((request, response) => {
    const asset = assets.get(new URL(request.url ?? '/', 'http://page').pathname);
    if (asset === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': asset.contentType, 'cache-control': 'no-store' }).end(asset.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { origin, url: `${origin}/`, close };
}
