import { exec } from 'node:child_process';
import { codeInText } from './code-in-text.js';
import { OTP_WAIT_MS, OtpSourceError, type OtpSource } from './otp-source.js';

/** The code printed by a command run with the address in OTP_EMAIL (e.g. a script that reads a test mailbox). */
export function commandSource(command: string): OtpSource {
  return {
    beforeRegister: async () => {},
    codeFor: (email) =>
      new Promise((resolve, reject) => {
        exec(command, { env: { ...process.env, OTP_EMAIL: email }, timeout: OTP_WAIT_MS }, (error, stdout, stderr) => {
          const stderrText = stderr.trim() === '' ? '' : `: ${stderr.trim().slice(0, 500)}`;
          if (error !== null) {
            reject(new OtpSourceError(`--otp-source command:${command} failed for ${email} (${error.message.split('\n')[0]!.trim()})${stderrText}`));
            return;
          }
          const code = codeInText(stdout, email);
          if (code !== undefined) resolve(code);
          else reject(new OtpSourceError(`--otp-source command:${command} printed no code for ${email}${stderrText}`));
        });
      }),
  };
}
