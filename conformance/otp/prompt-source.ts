import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import type { OtpSource } from './otp-source.js';

/** The terminal, opened directly: checks run off the main thread, without its standard input. */
export const TERMINAL = '/dev/tty';

/** A person reads the email and types the code (its digits, whatever their number: OTP-LENGTH judges that). */
export function promptSource(): OtpSource {
  return {
    beforeRegister: async () => {},
    codeFor: async (email) => {
      const input = createReadStream(TERMINAL);
      const output = createWriteStream(TERMINAL);
      const prompt = createInterface({ input, output });
      try {
        for (;;) {
          const answer = (await prompt.question(`Code sent to ${email}: `)).trim();
          if (/^\d+$/.test(answer)) return answer;
          output.write('A code is digits only.\n');
        }
      } finally {
        prompt.close();
        input.destroy();
        output.end();
      }
    },
  };
}
