/**
 * The TypeScript type of the values a JSON Schema accepts, for the subset the control API's schemas use:
 * `type` (one, or a list such as ['string', 'null']), `const`, `enum`, `anyOf`, `items`, and objects with
 * `properties`, `required` and `additionalProperties` (an object is closed unless it says `true`).
 * Declaring a schema once `as const` gives both the document's schema and the type the code is checked against.
 */
export type SchemaValue<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { anyOf: readonly (infer A)[] }
      ? SchemaValue<A>
      : S extends { type: readonly (infer T)[] }
        ? ValueOfType<S, T>
        : S extends { type: infer T }
          ? ValueOfType<S, T>
          : unknown;

type ValueOfType<S, T> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { items: infer I }
            ? readonly SchemaValue<I>[]
            : readonly unknown[]
          : T extends 'object'
            ? ObjectValue<S>
            : never;

type RequiredKeys<S> = S extends { required: readonly (infer R)[] } ? R : never;

type Flatten<T> = { [K in keyof T]: T[K] } & {};

type DeclaredProperties<S, P> = Flatten<
  { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: SchemaValue<P[K]> } & {
    -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: SchemaValue<P[K]>;
  }
>;

type ObjectValue<S> = S extends { properties: infer P }
  ? S extends { additionalProperties: true }
    ? DeclaredProperties<S, P> & Record<string, unknown>
    : DeclaredProperties<S, P>
  : Record<string, unknown>;
