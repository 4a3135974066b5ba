import { readdirSync, readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { publishedWorldSchema, WORLD_SCHEMA_FILE } from './world-schema.js';

const root = new URL('../../', import.meta.url);

describe(WORLD_SCHEMA_FILE, () => {
  it('is the committed copy of the TypeScript schema', () => {
    const committed = readFileSync(new URL(WORLD_SCHEMA_FILE, root), 'utf8');
    if (committed !== publishedWorldSchema()) {
      expect.fail(`${WORLD_SCHEMA_FILE} differs from src/core/world-schema.ts: run \`npm run schema\` and commit the result`);
    }
  });

  it('accepts every shipped world, for a standard draft-07 validator', () => {
    const validate = new Ajv({ strict: false }).compile(JSON.parse(publishedWorldSchema()) as object);
    const worlds = new URL('fixtures/worlds/', root);
    const files = readdirSync(worlds).filter((name) => name.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(validate(JSON.parse(readFileSync(new URL(file, worlds), 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
