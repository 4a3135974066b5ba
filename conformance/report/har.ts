import { writeFile } from 'node:fs/promises';
import { type HarEntry, type HarPage, harDocument, harEntry } from '../../src/spec/har.js';
import { type Exchange, maskedHeaders } from '../exchange.js';

/** Where a run writes its exchanges as HAR 1.2, and the version of this tool that the file names as its creator. */
export interface HarOutput {
  file: string;
  creatorVersion: string;
}

const CONTROL_COMMENT = 'control API: the run preparing the target, not a request under test';

/** Every exchange of a run, in the order sent, grouped in pages (a check, a sequence) when the run names them. */
export class HarRecorder {
  readonly #entries: HarEntry[] = [];
  readonly #pages: HarPage[] = [];
  #page: string | undefined;

  /** Exchanges from now on belong to a page of this title. */
  startPage(title: string): void {
    this.#page = `page_${this.#pages.length + 1}`;
    this.#pages.push({ startedDateTime: new Date().toISOString(), id: this.#page, title, pageTimings: {} });
  }

  record(exchange: Exchange, isControl: boolean): void {
    this.#entries.push(
      harEntry({
        method: exchange.method,
        url: exchange.url,
        requestHeaders: maskedHeaders(exchange.requestHeaders),
        requestBody: exchange.requestBody,
        status: exchange.status,
        responseHeaders: exchange.headers,
        responseText: exchange.text,
        startedAt: exchange.sentAt,
        durationMs: exchange.receivedAt - exchange.sentAt,
        ...(this.#page === undefined ? {} : { pageref: this.#page }),
        ...(isControl ? { comment: CONTROL_COMMENT } : {}),
      }),
    );
  }

  async write({ file, creatorVersion }: HarOutput): Promise<void> {
    const entries = [...this.#entries].sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
    await writeFile(file, `${JSON.stringify(harDocument(creatorVersion, entries, this.#pages.length > 0 ? this.#pages : undefined), null, 2)}\n`);
  }
}
