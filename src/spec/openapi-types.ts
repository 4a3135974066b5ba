import type { ControlRouteSummary } from './control-schemas.js';
/** The parts of OpenAPI 3.1 the generated document uses, typed so that tests can walk it. */

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Marks what the spec leaves open and the mock decides; the description says what it decided. */
export interface MockDefined {
  'x-mock-defined'?: true;
}

export interface OpenApiHeader extends MockDefined {
  description: string;
  required: boolean;
  schema: JsonSchema;
  /** What a mock serving the document (Prism) answers with: a value the mock could send. */
  example: number | string;
}

export interface OpenApiReference {
  $ref: string;
}

/**
 * Bodies by media type (JSON everywhere but a few control routes: the dashboard's HTML, an event stream): each its
 * schema, and an example taken from the mock's own answers.
 */
export type OpenApiMediaType = Record<string, { schema: JsonSchema; example?: unknown }>;

export interface OpenApiResponse extends MockDefined {
  description: string;
  headers?: Record<string, OpenApiHeader | OpenApiReference>;
  content?: OpenApiMediaType;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  /** Always true for a path parameter. */
  required: boolean;
  schema: JsonSchema;
}

export interface OpenApiOperation extends MockDefined {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters?: OpenApiParameter[];
  security?: Record<string, string[]>[];
  requestBody?: { required: boolean; content: OpenApiMediaType };
  responses: Record<string, OpenApiResponse>;
  /** The rate-limit bucket the operation counts in, as the spec's Limits table states it. */
  'x-rate-limit'?: { category: string; limit: number; windowSeconds: number; scope: string; exemptForGameOrigins: boolean };
}

export type OpenApiMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type OpenApiPathItem = Partial<Record<OpenApiMethod, OpenApiOperation>>;

export interface OpenApiTag extends MockDefined {
  name: string;
  description: string;
}

/** A type alias, not an interface, so that it is a plain JSON record to whoever serves it. */
export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: { url: string; description: string }[];
  tags: OpenApiTag[];
  paths: Record<string, OpenApiPathItem>;
  /** Answers that belong to no operation (a path no route has, a method the path does not take), by name. */
  'x-unrouted-responses': Record<string, OpenApiResponse>;
  components: {
    schemas: Record<string, JsonSchema>;
    headers: Record<string, OpenApiHeader>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; bearerFormat: string; description: string }>;
  };
};

/** A route a mock was configured with, beyond the spec's table; `:name` segments are parameters. */
export interface ConfiguredRoute {
  method: Uppercase<OpenApiMethod>;
  path: string;
  /** The spec's category it joins; default gameplay. */
  category?: 'gameplay' | 'read' | 'public';
  /** Where it is defined (config, or a handler's module and export), for the description. */
  source?: string;
  /** Query parameters its templates or answers read. */
  query?: readonly string[];
  /** Fields of the JSON body its templates or answers read. */
  bodyFields?: readonly string[];
  /** The statuses it answers (default: 200 only); `templatedStatus` when a template gives one. */
  statuses?: readonly number[];
  templatedStatus?: boolean;
  /** Some answer is a body of its own (no envelope). */
  ownBody?: boolean;
  /** A request none of its answers matches is a 404. */
  notFoundWhenUnmatched?: boolean;
  /** The body it answers with each status, where its templates tell (`default`: a status a template gives). */
  answerBodies?: Readonly<Record<string, JsonSchema>>;
}

/** The fields a mock's configuration gives a resource (ship or player) beside its own, as JSON Schemas. */
export interface ResourceFields {
  properties: Readonly<Record<string, JsonSchema>>;
  /** Those every resource has: the fields of its template. */
  required: readonly string[];
}

export type { ControlRouteSummary } from './control-schemas.js';

/** A control route as the document describes it: with what it reads of a request, where it reads anything. */
export type ControlRouteDescription = ControlRouteSummary & {
  input?: { body?: object; query?: readonly string[] };
};
