import type { OpenApiDocument, OpenApiMethod, OpenApiOperation } from './openapi-types.js';

/** One answer of the mock, to show as the example of its operation's response: the path as the document writes it. */
export interface ExampleAnswer {
  method: string;
  /** `/api/galaxy/{galaxyId}/sectors`. */
  path: string;
  status: number;
  body: unknown;
}

/** The document with each JSON response an answer was given for showing that answer as its example; the first answer of a status wins. */
export function withExamples(document: OpenApiDocument, answers: readonly ExampleAnswer[]): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const [path, item] of Object.entries(document.paths)) {
    paths[path] = Object.fromEntries(
      Object.entries(item).map(([method, operation]: [string, OpenApiOperation]) => {
        const mine = answers.filter((answer) => answer.path === path && answer.method.toLowerCase() === (method as OpenApiMethod));
        const responses = Object.fromEntries(
          Object.entries(operation.responses).map(([status, response]) => {
            const answer = mine.find((candidate) => String(candidate.status) === status);
            const json = response.content?.['application/json'];
            if (answer === undefined || json === undefined) return [status, response];
            return [status, { ...response, content: { ...response.content, 'application/json': { ...json, example: answer.body } } }];
          }),
        );
        return [method, { ...operation, responses }];
      }),
    );
  }
  return { ...document, paths };
}
