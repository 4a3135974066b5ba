import { open, stat } from 'node:fs/promises';
import { codeInText } from './code-in-text.js';
import { OTP_WAIT_MS, OtpSourceError, type OtpSource } from './otp-source.js';

const POLL_MS = 250;

export interface LogWaits {
  /** How long a code may take to be written. */
  codeMs: number;
  /** How long a code may follow a line that names the address without one (a code the suite cannot read is not waited for). */
  afterNamingMs: number;
}

const LOG_WAITS: LogWaits = { codeMs: OTP_WAIT_MS, afterNamingMs: 10_000 };

/** The code from a log file the target writes: the newest new line that names the address and holds a code. */
export function logSource(file: string, waits: LogWaits = LOG_WAITS): OtpSource {
  const offsets = new Map<string, number>();
  const sizeOf = async () => {
    try {
      return (await stat(file)).size;
    } catch (error) {
      throw new OtpSourceError(`--otp-source log:${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  };
  const readFrom = async (from: number, size: number): Promise<string> => {
    const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      throw new OtpSourceError(`--otp-source log:${file} cannot be read: ${error.code ?? error.message}`);
    });
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(size - from), 0, size - from, from);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  };
  return {
    beforeRegister: async (email) => {
      offsets.set(email, await sizeOf());
    },
    codeFor: async (email) => {
      const from = offsets.get(email) ?? 0;
      let deadline = Date.now() + waits.codeMs;
      let naming: string | undefined;
      while (Date.now() < deadline) {
        const size = await sizeOf();
        if (size > from) {
          const lines = (await readFrom(from, size)).split('\n').filter((text) => text.includes(email));
          const code = lines.map((line) => codeInText(line, email)).findLast((found) => found !== undefined);
          if (code !== undefined) return code;
          if (naming === undefined && lines.length > 0) deadline = Math.min(deadline, Date.now() + waits.afterNamingMs);
          naming = lines.at(-1) ?? naming;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      if (naming !== undefined) throw new Error(`${file} names ${email} without a code the suite can read: ${naming.trim().slice(0, 300)}`);
      throw new Error(`no line naming ${email} with a code appeared in ${file} within ${waits.codeMs / 1000} s`);
    },
  };
}
