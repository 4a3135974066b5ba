import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { ServiceResponse } from '../../src/core/http.js';
import { HEADERS, type OpenApiDocument, type OpenApiHeader, type OpenApiOperation, type OpenApiResponse } from '../../src/spec/index.js';

const SPEC_HEADERS: readonly string[] = Object.values(HEADERS);

/** The value with every local `$ref` replaced by what it points at (the document has no cycles). */
export function dereference<T>(value: T, root: unknown = value): T {
  if (Array.isArray(value)) return value.map((item: unknown) => dereference(item, root)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const { $ref, ...rest } = value as Record<string, unknown>;
  const keys =
    typeof $ref === 'string'
      ? $ref
          .slice(2)
          .split('/')
          .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'))
      : [];
  const target = keys.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root);
  expect(target, `${String($ref)} points at nothing`).toBeDefined();
  const merged = { ...(typeof $ref === 'string' ? (target as object) : {}), ...rest };
  return Object.fromEntries(Object.entries(merged).map(([key, item]) => [key, dereference(item, root)])) as T;
}

/**
 * The schema as strict validators and redocly (reading examples) read it: a schema that names properties, or joins
 * schemas with allOf, allows no field it does not declare (`unevaluatedProperties: false`) unless it says which it
 * allows; an allOf's members are closed together, as their whole; what a `not` excludes stays as written.
 */
export function closedReading(schema: unknown, allOfMember = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => closedReading(item));
  if (typeof schema !== 'object' || schema === null) return schema;
  const read = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === 'not' || key === 'example') return [key, value];
      if (key === 'allOf') return [key, (value as unknown[]).map((member) => closedReading(member, true))];
      if (key === 'properties' || key === 'patternProperties')
        return [key, Object.fromEntries(Object.entries(value as object).map(([name, property]) => [name, closedReading(property)]))];
      return [key, closedReading(value)];
    }),
  );
  if (allOfMember || 'additionalProperties' in read || 'unevaluatedProperties' in read) return read;
  if ('properties' in read) return { ...read, unevaluatedProperties: false };
  // Members that are all objects together are one: typed so, as a strict validator wants the keyword's type said.
  const members = (read['allOf'] ?? []) as { type?: unknown }[];
  return members.some((member) => member.type === 'object') ? { ...read, type: 'object', unevaluatedProperties: false } : read;
}

/** A JSON Schema validator (ajv, draft 2020-12, strict) that knows the document's formats and extension. */
export function schemaValidator(): (schema: object, value: unknown, what: string) => void {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, keywords: ['x-mock-defined'] });
  addFormats.default(ajv);
  const compiled = new Map<object, ValidateFunction>();
  return (schema, value, what) => {
    const check = compiled.get(schema) ?? ajv.compile(schema);
    compiled.set(schema, check);
    expect(check(value), `${what}: ${JSON.stringify(value)} ${ajv.errorsText(check.errors)}`).toBe(true);
  };
}

/**
 * Checks the mock's answers against a document: a status it declares for the operation (or the answers for a
 * path or method that has none), a body of the declared schema read closed (closedReading), the required headers,
 * and no spec header it omits.
 */
export function responseChecker(document: OpenApiDocument) {
  const resolved = closedReading(dereference(document)) as OpenApiDocument;
  const validate = schemaValidator();

  function checkAgainst(declared: OpenApiResponse | undefined, response: ServiceResponse, what: string): void {
    expect(declared, `${what} answered ${response.status}, which the document does not declare`).toBeDefined();
    validate(declared!.content!['application/json']!.schema, JSON.parse(JSON.stringify(response.body)), `${what} ${response.status} body`);
    const headers = declared!.headers as Record<string, OpenApiHeader>;
    for (const name of SPEC_HEADERS) if (name in response.headers) expect(headers, `${what} ${response.status} sends ${name}`).toHaveProperty([name]);
    for (const [name, header] of Object.entries(headers)) {
      const value = response.headers[name];
      if (header.required) expect(value, `${what} ${response.status} must send ${name}`).toBeDefined();
      if (value !== undefined) validate(header.schema, header.schema['type'] === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value, `${what} ${name}`);
    }
  }

  const templates = Object.keys(resolved.paths).filter((template) => template.includes('{'));
  /** The document's templated path (`/api/galaxy/{galaxyId}/sectors`) a concrete one (`/api/galaxy/1/sectors`) fills in. */
  const templateOf = (path: string) => {
    const segments = path.split('/');
    return templates.find((template) => {
      const parts = template.split('/');
      return parts.length === segments.length && parts.every((part, index) => (part.startsWith('{') ? segments[index] !== '' : part === segments[index]));
    });
  };

  /** Returns the operation the request reached, if any. */
  return (method: string, path: string, response: ServiceResponse, origin?: string): OpenApiOperation | undefined => {
    const what = `${method} ${path}`;
    const unrouted = resolved['x-unrouted-responses'];
    const item = resolved.paths[path] ?? resolved.paths[templateOf(path) ?? ''];
    // A preflight is answered before routing, on every path, as the document's description says.
    if (method === 'OPTIONS' && origin !== undefined) {
      expect(response.status, `${what}: a preflight, from any origin by default`).toBe(204);
      return undefined;
    }
    // HEAD is answered wherever GET is, as the document's description says.
    const operation = item?.[(method === 'HEAD' ? 'get' : method.toLowerCase()) as keyof typeof item];
    if (operation !== undefined) {
      checkAgainst(operation.responses[response.status], response, what);
      return operation;
    }
    if (response.status === 401 && unrouted['Unauthorized'] !== undefined) {
      checkAgainst(unrouted['Unauthorized'], response, what);
    } else if (response.status === 429) {
      checkAgainst(unrouted['TooManyRequests'], response, what);
    } else {
      checkAgainst(item === undefined ? unrouted['NotFound'] : unrouted['MethodNotAllowed'], response, what);
      const declared = Object.keys(item ?? {}).flatMap((name) => (name === 'get' ? ['GET', 'HEAD'] : [name.toUpperCase()]));
      if (item !== undefined) expect(response.headers['allow']?.split(', ').sort()).toEqual(declared.sort());
    }
    return undefined;
  };
}

/** The document without the examples of its answers' bodies: what two mocks of the same options serve alike (their players and tokens differ). */
export function withoutExamples(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  for (const item of Object.values(copy.paths))
    for (const operation of Object.values(item))
      for (const response of Object.values(operation.responses)) for (const media of Object.values(response.content ?? {})) delete media.example;
  return copy;
}
