import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA_FILE, configSchema, publishedConfigSchema } from './config-schema.js';

describe(CONFIG_SCHEMA_FILE, () => {
  it('is the committed copy of the TypeScript schema', () => {
    const committed = readFileSync(new URL(`../../${CONFIG_SCHEMA_FILE}`, import.meta.url), 'utf8');
    // Not toBe: a failure must say how to fix it rather than print two 6 kB documents.
    if (committed !== publishedConfigSchema()) {
      expect.fail(`${CONFIG_SCHEMA_FILE} differs from the settings of src/standalone/settings.ts: run \`npm run schema\` and commit the result`);
    }
  });

  it('judges configs as the CLI does, for a standard draft-07 validator', () => {
    const standard = new Ajv({ strict: false }).compile(JSON.parse(publishedConfigSchema()) as object);
    const cli = new Ajv({ strict: true }).compile(configSchema);
    const samples: unknown[] = [
      {},
      { port: 8080, gameOrigin: 'http://a.test', botCheck: { mode: 'off' } },
      { port: null, actionPoints: null, routes: [{ method: 'PUT', path: '/api/x', response: { a: null } }] },
      { logFormat: null },
      { gameOrigin: null },
      { botCheck: { mode: 'tokens' } },
      { actionPoints: { max: 0 } },
      { bogus: 1 },
    ];
    for (const sample of samples) expect(standard(sample), JSON.stringify(sample)).toBe(cli(sample));
  });
});
