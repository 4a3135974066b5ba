/**
 * HAR 1.2 (HTTP Archive), the format browsers' devtools and HTTP tools open: the types of the parts this
 * project writes, and the one function that turns a request and its answer into an entry. The suite's
 * reports and the mock's journal both build their entries here.
 */

export type HarNameValue = { name: string; value: string };

export type HarEntry = {
  pageref?: string;
  startedDateTime: string;
  /** Milliseconds from the request's start to the response's end: the sum of the timings. */
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
};

export type HarPage = { startedDateTime: string; id: string; title: string; pageTimings: Record<string, never> };

export type HarDocument = {
  log: { version: '1.2'; creator: { name: string; version: string }; pages?: HarPage[]; entries: HarEntry[]; comment?: string };
};

/** A request and its answer as either side knows them; a body or header it does not know is left out. */
export interface HarExchange {
  method: string;
  /** Absolute. */
  url: string;
  requestHeaders: Readonly<Record<string, string>>;
  requestBody: string | undefined;
  status: number;
  responseHeaders: Readonly<Record<string, string>>;
  /** Undefined when the body was not kept (the journal keeps none). */
  responseText: string | undefined;
  /** Epoch milliseconds when the request was sent. */
  startedAt: number;
  /** Milliseconds until the whole response had arrived: 0 when unknown. */
  durationMs: number;
  pageref?: string;
  comment?: string;
}

export const HAR_CREATOR_NAME = 'game-service-harness';
const HTTP_VERSION = 'HTTP/1.1';
const utf8 = new TextEncoder();

const pairs = (record: Readonly<Record<string, string>>): HarNameValue[] => Object.entries(record).map(([name, value]) => ({ name, value }));

function mediaType(headers: Readonly<Record<string, string>>): string {
  return Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
}

export function harEntry(exchange: HarExchange): HarEntry {
  const requestSize = exchange.requestBody === undefined ? 0 : utf8.encode(exchange.requestBody).byteLength;
  const responseSize = exchange.responseText === undefined ? 0 : utf8.encode(exchange.responseText).byteLength;
  const time = Math.max(0, exchange.durationMs);
  return {
    ...(exchange.pageref === undefined ? {} : { pageref: exchange.pageref }),
    startedDateTime: new Date(exchange.startedAt).toISOString(),
    time,
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: pairs(exchange.requestHeaders),
      queryString: [...new URL(exchange.url).searchParams].map(([name, value]) => ({ name, value })),
      ...(exchange.requestBody === undefined ? {} : { postData: { mimeType: mediaType(exchange.requestHeaders), text: exchange.requestBody } }),
      headersSize: -1,
      bodySize: requestSize,
    },
    response: {
      status: exchange.status,
      statusText: '',
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: pairs(exchange.responseHeaders),
      content: {
        size: responseSize,
        mimeType: mediaType(exchange.responseHeaders),
        ...(exchange.responseText === undefined ? {} : { text: exchange.responseText }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: exchange.responseText === undefined ? -1 : responseSize,
    },
    cache: {},
    // Only the whole duration is measured: it counts as waiting for the answer.
    timings: { send: 0, wait: time, receive: 0 },
    ...(exchange.comment === undefined ? {} : { comment: exchange.comment }),
  };
}

export function harDocument(creatorVersion: string, entries: HarEntry[], pages?: HarPage[]): HarDocument {
  return { log: { version: '1.2', creator: { name: HAR_CREATOR_NAME, version: creatorVersion }, ...(pages === undefined ? {} : { pages }), entries } };
}
