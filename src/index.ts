/** The library surface of orch-apiserver. */
export { createServer, type OrchServer, type ServerTls } from './server/create-server.js';
export { StoreDomainMismatchError } from './server/store-domain.js';
export type { ServerOptions } from './server/options.js';
export { defineResource, type ResourceDefinition, type ResourceFactory, type Strategy } from './registry/define-resource.js';
export { t, type Infer, type ObjectOf, type KubeObject } from './schema/index.js';
export { createApiNames, type ApiNames } from './machinery/api-names.js';
