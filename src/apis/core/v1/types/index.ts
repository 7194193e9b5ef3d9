/** Types shared by several core/v1 kinds. Kind-specific types live beside their kind. */
export * from './references.js';
export * from './resources.js';
export * from './scheduling.js';
export * from './field-checks.js';
export * from './claim-spec.js';
export * from './topology.js';
