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

/** Unknown fields named in a refusal at most; a body of 64 KiB can hold thousands. */
const MAX_NAMED_FIELDS = 5;

/** A spec route's body lacks a field the spec requires; the refusal can say what came instead. */
export class MissingFieldError extends ApiError {
  constructor(
    readonly field: string,
    why?: string,
  ) {
    super(400, why === undefined ? `${field} is required` : `${field} is required: ${why}`);
  }

  /** The message with the fields the body carried that the spec does not name, so a client developer sees a misnamed field. */
  naming(unknownFields: readonly string[]): string {
    if (unknownFields.length === 0) return this.message;
    const named = unknownFields.slice(0, MAX_NAMED_FIELDS).join(', ');
    // The list is itself bounded, so how many more there were is not known here.
    const more = unknownFields.length > MAX_NAMED_FIELDS ? ' and more' : '';
    return `${this.message}; got ${named}${more}, which the spec does not name`;
  }
}

export interface ErrorBody {
  error: string;
}

export function errorBody(message: string): ErrorBody {
  return { error: message };
}
