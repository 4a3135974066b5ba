import { parseOriginList } from './flag-values.js';
import type { FlagDeclaration } from './setting-declaration.js';

/**
 * --game-origin, as every command that takes it reads it (mock, check, fuzz, proxy): origins, repeatable or
 * comma-separated, so that one GAME_SERVICE_GAME_ORIGIN serves them all. Each command says what the origins do for it.
 */
export const GAME_ORIGIN_FLAG = { name: 'game-origin', kind: 'list', parse: parseOriginList } as const satisfies FlagDeclaration;
