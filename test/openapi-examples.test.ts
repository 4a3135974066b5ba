import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMockConfig } from '../src/index.js';
import type { ServiceOptions } from '../src/core/options.js';
import type { OpenApiDocument, OpenApiOperation } from '../src/spec/index.js';
import { CoreHarness } from './support/core-harness.js';
import { closedReading, dereference, schemaValidator } from './support/openapi-checker.js';
import { ROOT } from './support/cli.js';

const CONFIGURATIONS: Record<string, () => Promise<ServiceOptions>> = {
  default: async () => ({}),
  '--variant all': async () => ({ variants: ['all'] }),
  "the example client's config": () => loadMockConfig(join(ROOT, 'examples', 'web-client', 'mock.json')),
};

/** Every JSON response of the document with what it shows, as `GET /health 200`. */
function jsonResponses(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]: [string, OpenApiOperation]) =>
      Object.entries(operation.responses).flatMap(([status, response]) => {
        const json = response.content?.['application/json'];
        return json === undefined ? [] : [{ name: `${method.toUpperCase()} ${path} ${status}`, operation, status, json }];
      }),
    ),
  );
}

describe("the OpenAPI document's examples: the mock's own answers", () => {
  for (const [name, options] of Object.entries(CONFIGURATIONS)) {
    it(`${name}: each valid against its response's schema, on every success the session reaches and its refusals`, async () => {
      const harness = new CoreHarness(await options());
      // Closed, as redocly reads examples: an example's field its schema does not declare is a violation.
      const document = closedReading(dereference((await harness.call('GET', '/__mock/openapi.json')).body as OpenApiDocument)) as OpenApiDocument;
      const validate = schemaValidator();
      const responses = jsonResponses(document);
      const shown = responses.filter(({ json }) => 'example' in json);
      for (const { name: response, json } of shown) validate(json.schema, json.example, `the example of ${response}`);
      const shownNames = shown.map((response) => response.name);
      // Every success of the API's operations and of the control API's reads without parameters, but for the two whose
      // answer is a document of its own: this one, and the journal as HAR.
      const isControl = (response: string) => response.split(' ')[1]!.startsWith('/__mock');
      const successes = responses.filter(
        ({ status, name: response }) =>
          /^2\d\d$/.test(status) &&
          (!isControl(response) || (response.startsWith('GET ') && !response.includes('{'))) &&
          !['GET /__mock/openapi.json 200', 'GET /__mock/journal.har 200'].includes(response),
      );
      const unshown = successes.filter(({ name: success }) => !shownNames.includes(success)).map(({ name: success }) => success);
      expect(unshown).toEqual([]);
      expect(shownNames).toEqual(expect.arrayContaining(['POST /api/auth/register 400', 'POST /api/auth/register 429', 'GET /api/player 401']));
      expect(shown.length).toBeGreaterThan(20);
    });
  }
});
