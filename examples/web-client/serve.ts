// Serves the example client from an origin of its own, as a game client's dev server does: index.html, and
// src/main.ts bundled by esbuild on each load (edit, then reload). `npm run example:web-client -- --help`.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const HERE = new URL('./', import.meta.url);
const DEFAULT_PORT = 5173;
const DEFAULT_API = 'http://127.0.0.1:8080';

export interface WebClientServerOptions {
  port?: number;
  host?: string;
  /** The script bundled as /app.js; default src/main.ts. */
  entryPoint?: string;
  /** More files to serve, by URL path: a page that starts msw's worker needs its script at the root. */
  files?: Readonly<Record<string, string>>;
}

export interface WebClientServer {
  /** e.g. http://127.0.0.1:5173: the origin the API sees in requests from the page. */
  origin: string;
  close(): Promise<void>;
}

async function bundle(entryPoint: string): Promise<string> {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

function contentType(path: string): string {
  if (path.endsWith('.html')) return 'text/html; charset=utf-8';
  return path.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'application/octet-stream';
}

export async function serveWebClient(options: WebClientServerOptions = {}): Promise<WebClientServer> {
  const entryPoint = options.entryPoint ?? new URL('src/main.ts', HERE).pathname;
  const files: Record<string, string> = { '/': new URL('index.html', HERE).pathname, ...options.files };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page').pathname;
    const file = files[path];
    const body = path === '/app.js' ? bundle(entryPoint) : file === undefined ? undefined : readFile(file, 'utf8');
    if (body === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    body.then(
      (text) => response.writeHead(200, { 'content-type': contentType(file ?? path), 'cache-control': 'no-store' }).end(text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { origin: `http://${address.includes(':') ? `[${address}]` : address}:${port}`, close };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: String(DEFAULT_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      api: { type: 'string', default: DEFAULT_API },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    console.log(
      `Usage: npm run example:web-client -- [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--api ${DEFAULT_API}]\n--api is the API base URL put in the printed link (the page reads it from ?api=).`,
    );
    process.exit(0);
  }
  const server = await serveWebClient({ port: Number(values.port), host: values.host });
  console.log(`Web client on ${server.origin}/?api=${values.api}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close());
}
