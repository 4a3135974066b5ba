/** Stable codes for errors that reach a person, apart from bugs; each maps to an exit code. */
export type CliErrorCode = 'GS_USAGE' | 'GS_CONFIG' | 'GS_LISTEN';

export const EXIT_CODES = { success: 0, checkFailed: 1, usage: 2 } as const;

export class CliError extends Error {
  readonly code: CliErrorCode;
  readonly exitCode: number;

  constructor(code: CliErrorCode, message: string, exitCode: number = EXIT_CODES.usage) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.exitCode = exitCode;
  }
}
