/** Where the code a target sent to an address can be read. */
export interface OtpSource {
  /** Called just before the registration that sends the code (a log source notes where the file ends). */
  beforeRegister(email: string): Promise<void>;
  /** The code most recently sent to `email`. */
  codeFor(email: string): Promise<string>;
}

export const OTP_PATTERN = /\b(\d{6})\b/;
export const OTP_WAIT_MS = 60_000;
