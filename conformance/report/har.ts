import { readFile, stat, writeFile } from 'node:fs/promises';
import { type HarEntry, type HarPage, harDocument, harEntry } from '../../src/spec/har.js';
import { type Exchange, maskedHeaders } from '../common/exchange.js';

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

  /** `comment`: why the run ended early, where it did (an interrupt, an error), for whoever opens the file. */
  async write({ file, creatorVersion }: HarOutput, comment?: string): Promise<void> {
    const entries = [...this.#entries].sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
    // A check that sent nothing (one judging the run's traffic, one skipped) has no page.
    const referenced = new Set(entries.map((entry) => entry.pageref));
    const pages = this.#pages.filter((page) => referenced.has(page.id));
    const document = harDocument(creatorVersion, entries, pages.length > 0 ? pages : undefined);
    await writeHar(file, comment === undefined ? document : { log: { ...document.log, comment } });
  }
}

async function writeHar(file: string, document: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
}

/**
 * Marks the HAR another process wrote (check's worker) with why the run ended early, or writes an empty one
 * where none was written (the run stopped before it began): a requested report is always there.
 */
export async function markHar(output: HarOutput, comment: string, runStartedAt: number): Promise<void> {
  let document: { log: Record<string, unknown> };
  try {
    // A file older than the run is an earlier run's: not this one's to mark.
    if ((await stat(output.file)).mtimeMs < runStartedAt) throw new Error('an earlier run wrote it');
    document = JSON.parse(await readFile(output.file, 'utf8')) as typeof document;
  } catch {
    document = harDocument(output.creatorVersion, []) as unknown as typeof document;
  }
  await writeHar(output.file, { log: { ...document.log, comment } });
}
