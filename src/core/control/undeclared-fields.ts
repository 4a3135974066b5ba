/**
 * The fields of an answer A, at any depth, that its declared type D does not name, as `path.to.field`
 * (`players[].level` for a field of an array's entries); never when A names only declared fields. TypeScript does not check a
 * function's returned object for extra fields, so the control routes check their answers with this.
 * An open object (an index signature in D, such as a ship's payload fields) takes any field.
 */
export type UndeclaredFields<A, D, At extends string = ''> = A extends readonly (infer Entry)[]
  ? D extends readonly (infer DeclaredEntry)[]
    ? UndeclaredFields<Entry, DeclaredEntry, `${At}[]`>
    : never
  : A extends object
    ? D extends object
      ? string extends keyof D
        ? never
        :
            | FieldPath<At, Exclude<keyof A, keyof D> & string>
            | { [K in keyof A & keyof D & string]: UndeclaredFields<A[K], D[K], FieldPath<At, K>> }[keyof A & keyof D & string]
      : never
    : never;

type FieldPath<At extends string, Field extends string> = At extends '' ? Field : `${At}.${Field}`;
