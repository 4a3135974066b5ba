import '../node-version-guard.js';
export * from './limits.js';
export * from './routes.js';
export * from './schemas.js';
export * from './openapi.js';
export * from './variants.js';
