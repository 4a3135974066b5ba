import type { JSONSchemaType } from 'ajv';
import { publishedSchema } from '../core/schema-document.js';
import { ROUTE_DEFINITIONS } from '../core/user-routes/route-schema.js';
import type { SettingDeclaration } from './setting-declaration.js';
import { FILE_SETTINGS, type MockConfig } from './setting-forms.js';

/** What the schema says of a key: its words, and its default unless that is left to the service. */
function keyDescription(setting: SettingDeclaration, words: string): string {
  const shown = setting.default === undefined ? (setting.defaultText === undefined ? '' : ` Default: ${setting.defaultText}.`) : ` Default ${setting.default}.`;
  return `${words}.${shown}`;
}

/** A key of several forms goes under `definitions`, described there. */
const FORMS = Object.fromEntries(
  FILE_SETTINGS.flatMap(({ name, setting, file }) =>
    file.forms === undefined ? [] : [[name, { ...file.forms, description: keyDescription(setting, file.description ?? setting.description) }]],
  ),
);

const PROPERTIES = Object.fromEntries(
  FILE_SETTINGS.map(({ name, setting, file }) => [
    name,
    file.forms === undefined ? { ...file.schema, description: keyDescription(setting, file.description ?? setting.description) } : file.schema,
  ]),
);

/**
 * The JSON Schema of a `--config` file, from the settings' keys; published as config.schema.json by `npm run schema`.
 * Each key's schema was checked against its value's type where the setting is declared, hence the cast.
 */
export const configSchema = {
  type: 'object',
  additionalProperties: false,
  definitions: { ...ROUTE_DEFINITIONS, ...FORMS },
  properties: PROPERTIES,
} as unknown as JSONSchemaType<MockConfig>;

/** The published file's name, at the package root. */
export const CONFIG_SCHEMA_FILE = 'config.schema.json';

/** The text of config.schema.json: the schema as any draft-07 validator reads it, with the metadata an editor shows. */
export function publishedConfigSchema(): string {
  return publishedSchema(
    configSchema,
    'game-service mock --config file',
    'Settings of `game-service mock`. A flag or GAME_SERVICE_<FLAG> variable overrides the key of the same name.',
  );
}
