/** OpenAPI v2 and v3 documents built from the registry's schemas, and their HTTP handler. */
export { createOpenApiDocuments, type OpenApiDocuments, type RenderedDocument } from './documents.js';
export { createOpenApiHandler, OPENAPI_V2_PROTOBUF, OPENAPI_V2_PROTOBUF_DEPRECATED } from './handler.js';
export { buildApiModel, type ApiModel } from './api-model.js';
export { buildSwagger } from './v2.js';
export { buildOpenApiV3 } from './v3.js';
export { encodeSwaggerProtobuf } from './protobuf-v2.js';
export { definitionName, extensionKeys } from './names.js';
