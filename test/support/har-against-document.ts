import { readFileSync } from 'node:fs';
import type { OpenApiDocument } from '../../src/spec/index.js';
import { responseChecker } from './openapi-checker.js';

interface HarEntry {
  request: { method: string; url: string; headers: { name: string; value: string }[] };
  response: { status: number; headers: { name: string; value: string }[]; content: { text?: string } };
}

const headerMap = (headers: { name: string; value: string }[]) => Object.fromEntries(headers.map(({ name, value }) => [name.toLowerCase(), value]));

/** A HAR masks a token an answer issues (`c77bce6d…`): it stands for a UUID of the same form. */
const unmaskedToken = (key: string, value: unknown) =>
  key === 'authToken' && typeof value === 'string' && value.endsWith('…') ? '00000000-0000-4000-8000-000000000000' : value;

function parsedBody(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text, unmaskedToken);
  } catch {
    return text;
  }
}

/**
 * Checks every exchange of a HAR file outside the control API against `document` (the status declared for its
 * operation or the unrouted answers, the body's schema, the headers); answers how many it checked.
 */
export function checkHarAgainstDocument(harFile: string, document: OpenApiDocument): number {
  const check = responseChecker(document);
  const entries = (JSON.parse(readFileSync(harFile, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
  const judged = entries.filter((entry) => !new URL(entry.request.url).pathname.startsWith('/__mock'));
  for (const { request, response } of judged) {
    const answer = { status: response.status, headers: headerMap(response.headers), body: parsedBody(response.content.text) };
    check(request.method, new URL(request.url).pathname, answer, headerMap(request.headers)['origin']);
  }
  return judged.length;
}
