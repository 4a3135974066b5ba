// Writes the published JSON Schemas from their TypeScript objects (run through `npm run schema`, which builds first).
import { writeFileSync } from 'node:fs';
import { CONFIG_SCHEMA_FILE, publishedConfigSchema } from '../dist/src/standalone/config-schema.js';
import { WORLD_SCHEMA_FILE, publishedWorldSchema } from '../dist/src/core/world-schema.js';

for (const [file, text] of [
  [CONFIG_SCHEMA_FILE, publishedConfigSchema()],
  [WORLD_SCHEMA_FILE, publishedWorldSchema()],
]) {
  writeFileSync(new URL(`../${file}`, import.meta.url), text);
  console.log(`wrote ${file}`);
}
