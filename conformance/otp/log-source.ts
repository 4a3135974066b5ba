import { open, stat } from 'node:fs/promises';
import { OTP_PATTERN, OTP_WAIT_MS, type OtpSource } from './otp-source.js';

const POLL_MS = 250;

/** The code from a log file the target writes: the first new line that names the address and holds 6 digits. */
export function logSource(file: string): OtpSource {
  const offsets = new Map<string, number>();
  const sizeOf = async () => (await stat(file).catch(() => ({ size: 0 }))).size;
  return {
    beforeRegister: async (email) => {
      offsets.set(email, await sizeOf());
    },
    codeFor: async (email) => {
      const from = offsets.get(email) ?? 0;
      const deadline = Date.now() + OTP_WAIT_MS;
      while (Date.now() < deadline) {
        const size = await sizeOf();
        if (size > from) {
          const handle = await open(file, 'r');
          try {
            const { buffer, bytesRead } = await handle.read(Buffer.alloc(size - from), 0, size - from, from);
            const line = buffer.subarray(0, bytesRead).toString('utf8').split('\n').findLast((text) => text.includes(email) && OTP_PATTERN.test(text));
            if (line !== undefined) return OTP_PATTERN.exec(line)![1]!;
          } finally {
            await handle.close();
          }
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      throw new Error(`no line naming ${email} with a 6-digit code appeared in ${file} within ${OTP_WAIT_MS / 1000} s`);
    },
  };
}
