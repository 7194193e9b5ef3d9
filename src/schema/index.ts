export * from './dsl.js';
export * from './decode.js';
export * from './meta.js';
export * from './meta-status.js';
export * from './meta-discovery.js';
export * from './meta-condition.js';
export * from './meta-partial.js';
