import type { Options } from 'yargs';
import { CliError } from '../standalone/cli-error.js';
import { checkWritableFile } from './file-flags.js';
import { parseOriginList } from '../standalone/flag-values.js';
import { listenFlags } from './flag-kinds.js';

export const FAIL_ON_CHOICES = ['client', 'server', 'any', 'none'] as const;
export type FailOn = (typeof FAIL_ON_CHOICES)[number];

export const PROXY_DEFAULTS = { port: 8090, host: '127.0.0.1', failOn: 'any' as FailOn };

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function parseTarget(value: unknown): string {
  const text = String(value);
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new CliError('GS_USAGE', `--target ${JSON.stringify(text)} is not an http(s) base URL, e.g. https://game.example.com or http://127.0.0.1:8080`);
  }
  return url.toString();
}

function parseHeaderName(value: unknown): string {
  const text = String(value);
  if (!HEADER_NAME.test(text)) throw new CliError('GS_USAGE', `--client-ip-header ${JSON.stringify(text)} is not a header name, e.g. X-Forwarded-For`);
  return text;
}

function writableFile(flag: string) {
  return (value: unknown) => {
    checkWritableFile(flag, String(value));
    return String(value);
  };
}

export const PROXY_FLAGS = {
  target: { type: 'string', requiresArg: true, demandOption: true, coerce: parseTarget, describe: 'Base URL of the deployment to forward to' },
  ...listenFlags(PROXY_DEFAULTS, 'TCP port the client connects to'),
  'game-origin': {
    type: 'string',
    array: true,
    requiresArg: true,
    coerce: parseOriginList,
    defaultDescription: 'none',
    describe:
      "The target's configured game origins (repeatable, or comma-separated): their requests are judged as exempt from the gameplay, read and public buckets",
  },
  'client-ip-header': {
    type: 'string',
    requiresArg: true,
    coerce: parseHeaderName,
    defaultDescription: 'the socket',
    describe: 'Tell clients apart by this header (its first hop), as a target behind a proxy does: X-Forwarded-For, CF-Connecting-IP, …',
  },
  'fail-on': {
    type: 'string',
    requiresArg: true,
    choices: FAIL_ON_CHOICES,
    defaultDescription: PROXY_DEFAULTS.failOn,
    describe: 'Exit 1 at the end when there are findings of this side: client, server, any, or none',
  },
  json: { type: 'string', requiresArg: true, coerce: writableFile('json'), describe: 'At exit, write the findings as JSON to FILE' },
  junit: {
    type: 'string',
    requiresArg: true,
    coerce: writableFile('junit'),
    describe: 'At exit, write a JUnit XML report to FILE: a testcase per rule, failed by its findings',
  },
  har: {
    type: 'string',
    requiresArg: true,
    coerce: writableFile('har'),
    describe: 'At exit, write the latest exchanges (up to 5,000) as HAR 1.2 to FILE, for devtools',
  },
  record: {
    type: 'string',
    requiresArg: true,
    coerce: writableFile('record'),
    describe: "At exit, write the answers of routes beyond the spec's table to FILE as mock routes: game-service mock --config FILE serves them",
  },
} as const satisfies Record<string, Options>;
