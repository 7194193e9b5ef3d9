export * from './dsl.js';
export * from './decode.js';
export * from './meta.js';
