import { ApiError, MissingFieldError } from './errors.js';
import { headerValue, type ServiceRequest } from './http.js';

export const MAX_BODY_BYTES = 64 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type JsonObject = Record<string, unknown>;

/** Whether a value is a JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request body as a JSON object, or the 4xx that says why it is not one. */
export function readJsonObject(request: ServiceRequest): JsonObject {
  const bytes = request.body;
  if (bytes !== undefined && bytes.byteLength > MAX_BODY_BYTES) {
    throw new ApiError(413, `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  }
  if (bytes === undefined || bytes.byteLength === 0) {
    throw new ApiError(400, 'Request body must be a JSON object');
  }
  const contentType = headerValue(request, 'content-type');
  if (contentType !== undefined && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    throw new ApiError(400, 'Content-Type must be application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(bytes));
  } catch {
    throw new ApiError(400, 'Request body is not valid JSON');
  }
  if (!isJsonObject(parsed)) throw new ApiError(400, 'Request body must be a JSON object');
  return parsed;
}

export function requiredString(body: JsonObject, field: string, maxLength: number): string {
  const value = body[field];
  if (value === undefined || value === null) throw new MissingFieldError(field);
  if (typeof value !== 'string') throw new ApiError(400, `${field} must be a string`);
  if (value.length > maxLength) throw new ApiError(400, `${field} must be at most ${maxLength} characters`);
  // JSON may escape half of a surrogate pair ("\ud800"), which no later step (email syntax, hashing) can read.
  if (!value.isWellFormed()) throw new ApiError(400, `${field} must be well-formed Unicode text`);
  return value;
}

export function optionalString(body: JsonObject, field: string, maxLength: number): string | undefined {
  return body[field] === undefined || body[field] === null ? undefined : requiredString(body, field, maxLength);
}

/** A field name as the journal and a refusal show it: bounded, whatever a client sent. */
const MAX_FIELD_NAME_LENGTH = 64;
/** Unknown fields remembered of one request at most. */
const MAX_UNKNOWN_FIELDS = 20;

/** The fields of a spec route's body that the spec does not name (in the order sent, bounded), for the refusal and the journal. */
export function unknownFields(body: JsonObject, known: readonly string[]): string[] {
  const unknown: string[] = [];
  for (const field of Object.keys(body)) {
    if (known.includes(field)) continue;
    unknown.push(field.length > MAX_FIELD_NAME_LENGTH ? `${field.slice(0, MAX_FIELD_NAME_LENGTH)}…` : field);
    if (unknown.length === MAX_UNKNOWN_FIELDS) break;
  }
  return unknown;
}

/** A body that may be left out: none, or an empty one, reads as `{}`. */
export function readOptionalJsonObject(request: ServiceRequest): JsonObject {
  return request.body === undefined || request.body.byteLength === 0 ? {} : readJsonObject(request);
}
