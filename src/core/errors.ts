/** The one way to answer with an error: thrown anywhere in the core, turned into `{error}` by the service. */
export class ApiError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.headers = headers;
  }
}

export interface ErrorBody {
  error: string;
}

export function errorBody(message: string): ErrorBody {
  return { error: message };
}
