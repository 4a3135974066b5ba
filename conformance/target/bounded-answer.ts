import { request } from 'undici';
import { decodedBody } from '../common/decoded-body.js';

/** The most of one answer's body the suite reads: no answer of this API comes near it, and an endless body stops here. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** An answer the suite stopped waiting for or reading: the target's fault, judged as a failure of the check that sent it. */
export class AnswerError extends Error {
  /** Whether the target kept the suite waiting (no whole answer in time), rather than sending too much. */
  readonly late: boolean;

  constructor(message: string, late: boolean) {
    super(message);
    this.name = 'AnswerError';
    this.late = late;
  }
}

export interface BoundedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

type RequestOptions = NonNullable<Parameters<typeof request>[1]>;

/**
 * One request whose whole answer (headers and body together) must arrive within `deadlineMs` and stay under
 * MAX_ANSWER_BYTES: undici's own timeouts bound each pause only, so a body that trickles forever never ends there.
 * `stop` (an interrupt) aborts it as it is; the deadline and the size end it with an AnswerError naming them.
 */
export async function boundedRequest(url: string, options: Omit<RequestOptions, 'signal'>, deadlineMs: number, stop?: AbortSignal): Promise<BoundedAnswer> {
  const deadline = AbortSignal.timeout(deadlineMs);
  const signal = stop === undefined ? deadline : AbortSignal.any([stop, deadline]);
  const what = `${options.method ?? 'GET'} ${new URL(url).pathname}`;
  const late = () => new AnswerError(`${what}: no whole answer within ${deadlineMs / 1000} s`, true);
  try {
    const answer = await request(url, { ...options, headersTimeout: deadlineMs, bodyTimeout: deadlineMs, signal });
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of answer.body) {
      bytes += (chunk as Buffer).length;
      if (bytes > MAX_ANSWER_BYTES) {
        answer.body.destroy();
        throw new AnswerError(`${what}: an answer body of more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, not read further`, false);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: answer.statusCode, headers: answer.headers, text: decodedText(Buffer.concat(chunks), answer.headers['content-encoding']) };
  } catch (error) {
    if (error instanceof AnswerError || stop?.aborted === true) throw error;
    const code = (error as { code?: string }).code;
    if (deadline.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') throw late();
    throw error;
  }
}

/**
 * The body as text, its content codings undone as a client that asked for them would; one that does not decode (a
 * coding never asked for, bytes that are not what the header says) is read as sent, for BODY-JSON to judge.
 */
function decodedText(bytes: Buffer, contentEncoding: string | string[] | undefined): string {
  const decoded = decodedBody(bytes, Array.isArray(contentEncoding) ? contentEncoding.join(', ') : contentEncoding, MAX_ANSWER_BYTES);
  return ('bytes' in decoded ? decoded.bytes : bytes).toString('utf8');
}
