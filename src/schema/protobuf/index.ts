/**
 * The protobuf representation: objects written as Kubernetes' generated code writes them, from the
 * schema DSL's field numbers, in the `k8s\0` envelope; watch events in length-delimited frames.
 */
export { encodeMessage } from './encode.js';
export { decodeMessage } from './decode.js';
export { PROTOBUF_MAGIC, decodeEnvelope, encodeEnvelope, hasProtobufMagic, type TypeMeta, type Unknown } from './envelope.js';
export { FrameReader, frame } from './frames.js';
export { protobufGaps } from './fields.js';
export { decodeProtobufObject, decodeWatchEvent, encodeProtobufObject, encodeWatchEvent, protobufSerializer } from './object.js';
export { ProtobufDecodeError } from '../../machinery/codec/protobuf-reader.js';
