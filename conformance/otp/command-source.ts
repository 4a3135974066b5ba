import { exec } from 'node:child_process';
import { OTP_PATTERN, OTP_WAIT_MS, type OtpSource } from './otp-source.js';

/** The code printed by a command run with the address in OTP_EMAIL (e.g. a script that reads a test mailbox). */
export function commandSource(command: string): OtpSource {
  return {
    beforeRegister: async () => {},
    codeFor: (email) =>
      new Promise((resolve, reject) => {
        exec(command, { env: { ...process.env, OTP_EMAIL: email }, timeout: OTP_WAIT_MS }, (error, stdout, stderr) => {
          const match = OTP_PATTERN.exec(stdout);
          if (match !== null) resolve(match[1]!);
          else reject(new Error(`command:${command} printed no 6-digit code for ${email}${error ? ` (${error.message.trim()})` : ''}${stderr ? `: ${stderr.trim()}` : ''}`));
        });
      }),
  };
}
