import { CliError } from './cli-error.js';

/** Several errors as one, a line each; a usage error among them makes it one, so that main points to --help. */
export class CliProblems extends CliError {
  readonly problems: readonly CliError[];

  constructor(problems: readonly CliError[]) {
    const code = problems.some((problem) => problem.code === 'GS_USAGE') ? 'GS_USAGE' : 'GS_CONFIG';
    super(code, `${problems.length} problems in the configuration:\n${problems.map((problem) => `  - ${problem.message}`).join('\n')}`);
    this.name = 'CliProblems';
    this.problems = problems;
  }
}

/** Errors found while reading the configuration, kept so that one run reports them all rather than the first. */
export class ProblemList {
  readonly #problems: CliError[] = [];

  add(problem: CliError): void {
    this.#problems.push(...(problem instanceof CliProblems ? problem.problems : [problem]));
  }

  /** What `read` returns; or, where it throws a CliError, undefined, with the error noted. */
  attempt<T>(read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      this.add(error);
      return undefined;
    }
  }

  /** Throws what was noted: one error as it is, several as one. */
  throwIfAny(): void {
    if (this.#problems.length === 1) throw this.#problems[0]!;
    if (this.#problems.length > 1) throw new CliProblems(this.#problems);
  }
}
