import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { OTP_PATTERN, type OtpSource } from './otp-source.js';

/** A person reads the email and types the code. The terminal is opened directly, since checks run off the main thread. */
export function promptSource(): OtpSource {
  return {
    beforeRegister: async () => {},
    codeFor: async (email) => {
      const input = createReadStream('/dev/tty');
      const output = createWriteStream('/dev/tty');
      const prompt = createInterface({ input, output });
      try {
        for (;;) {
          const answer = (await prompt.question(`Code sent to ${email}: `)).trim();
          if (OTP_PATTERN.test(answer) && answer.length === 6) return answer;
          output.write('A code is 6 digits.\n');
        }
      } finally {
        prompt.close();
        input.destroy();
        output.end();
      }
    },
  };
}
