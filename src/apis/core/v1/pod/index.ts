/** The pod's types, shared by Pod and every kind that embeds a PodTemplateSpec. */
export * from './affinity.js';
export * from './container.js';
export * from './pod-spec.js';
export * from './pod-status.js';
export * from './probes.js';
export * from './security-context.js';
export * from './volume-sources-legacy.js';
export * from './volumes.js';
