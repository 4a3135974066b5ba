import { CliError } from '../standalone/cli-error.js';
import { parsePort } from '../standalone/flag-values.js';
import { GAME_ORIGIN_FLAG } from '../standalone/game-origin-flag.js';
import type { CommandSetting } from './command-setting.js';
import { harOutput, writableFile } from './file-flags.js';

export const FAIL_ON_CHOICES = ['client', 'server', 'any', 'none'] as const;
export type FailOn = (typeof FAIL_ON_CHOICES)[number];

export const PROXY_DEFAULTS = { port: 8090, host: '127.0.0.1', failOn: 'any' as FailOn };

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function parseTarget(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new CliError('GS_USAGE', `--target ${JSON.stringify(value)} is not an http(s) base URL, e.g. https://game.example.com or http://127.0.0.1:8080`);
  }
  return url.toString();
}

function parseHeaderName(value: string): string {
  if (!HEADER_NAME.test(value)) throw new CliError('GS_USAGE', `--client-ip-header ${JSON.stringify(value)} is not a header name, e.g. X-Forwarded-For`);
  return value;
}

/** Every setting of `game-service proxy` (ProxyCommandOptions), in the order --help lists them. */
export const PROXY_SETTINGS = [
  { name: 'target', kind: 'string', parse: parseTarget, required: true, description: 'Base URL of the deployment to forward to' },
  {
    name: 'keep-base-path',
    kind: 'boolean',
    description: 'Take a --target whose path ends in /api or a route prefix as it is (its routes really are under it twice)',
  },
  {
    name: 'port',
    kind: 'number',
    parse: parsePort,
    defaultText: String(PROXY_DEFAULTS.port),
    description: 'TCP port the client connects to; 0 picks a free port (the URL is printed on start)',
  },
  { name: 'host', kind: 'string', defaultText: PROXY_DEFAULTS.host, description: 'Address to bind; 0.0.0.0 or :: to accept other machines' },
  {
    ...GAME_ORIGIN_FLAG,
    defaultText: 'none',
    description:
      "The target's configured game origins (repeatable, or comma-separated): their requests are judged as exempt from the gameplay, read and public buckets",
  },
  {
    name: 'client-ip-header',
    kind: 'string',
    parse: parseHeaderName,
    defaultText: 'the socket',
    description: 'Tell clients apart by this header (its first hop), as a target behind a proxy does: X-Forwarded-For, CF-Connecting-IP, …',
  },
  {
    name: 'fail-on',
    kind: 'string',
    choices: FAIL_ON_CHOICES,
    defaultText: PROXY_DEFAULTS.failOn,
    description: 'Exit 1 at the end when there are findings of this side: client, server, any, or none',
  },
  { name: 'json', kind: 'string', parse: writableFile('json'), description: 'At exit, write the findings as JSON to FILE' },
  {
    name: 'junit',
    kind: 'string',
    parse: writableFile('junit'),
    description: 'At exit, write a JUnit XML report to FILE: a testcase per rule, failed by its findings',
  },
  {
    name: 'har',
    kind: 'string',
    parse: harOutput,
    description: 'At exit, write the latest exchanges (up to 5,000) as HAR 1.2 to FILE, for devtools',
  },
  {
    name: 'record',
    kind: 'string',
    parse: writableFile('record'),
    description: "At exit, write the answers of routes beyond the spec's table to FILE as mock routes: game-service mock --config FILE serves them",
  },
] as const satisfies readonly CommandSetting[];
