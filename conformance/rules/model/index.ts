/** The spec's rate limits as a model, and the inference of the choices it leaves to a server: shared by `check` and `fuzz`. */
export * from './server-time.js';
export * from './reset-unit.js';
export * from './retry-after.js';
export * from './window-alignment.js';
export * from './rate-limit-model.js';
