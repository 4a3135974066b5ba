/**
 * The one way to answer with an error: thrown anywhere in the core, turned into `{error}` by the service.
 * Deliberately not an Error: it is an expected answer, not a bug, and capturing a stack trace for every
 * 401 or 429 would make a client hammering a limit five times as costly to serve.
 */
export class ApiError {
  readonly status: number;
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    this.status = status;
    this.message = message;
    this.headers = headers;
  }
}

export interface ErrorBody {
  error: string;
}

export function errorBody(message: string): ErrorBody {
  return { error: message };
}
