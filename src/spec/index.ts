import '../node-version-guard.js';
export * from './limits.js';
export * from './routes.js';
export * from './schemas.js';
export * from './openapi.js';
export * from './variants.js';
export * from './control-routes.js';
export * from './control-responses.js';
export * from './control-schemas.js';
