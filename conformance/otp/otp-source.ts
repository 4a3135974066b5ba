/** How to get the code a target emailed: its control API, a log file, a command, or a person. */
export type OtpSourceSpec = { kind: 'control' } | { kind: 'log'; file: string } | { kind: 'command'; command: string } | { kind: 'prompt' };

/** Where the code a target sent to an address can be read. */
export interface OtpSource {
  /** Called just before the registration that sends the code (a log source notes where the file ends). */
  beforeRegister(email: string): Promise<void>;
  /** The code most recently sent to `email`: its digits, whatever their number (OTP-LENGTH judges that). */
  codeFor(email: string): Promise<string>;
  /**
   * Whether any code was sent to `email`, read at once: only a source that can tell without waiting has it (the
   * control API's outbox); a log, a command or a person would make the run wait for a code that must not come.
   */
  deliveredAny?(email: string): Promise<boolean>;
}

/**
 * The OTP source itself cannot work (a log file that cannot be read, a command that fails, no terminal to
 * prompt on): a usage error that ends the run with exit 2, never a check's failure.
 */
export class OtpSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OtpSourceError';
  }
}

export const OTP_WAIT_MS = 60_000;
