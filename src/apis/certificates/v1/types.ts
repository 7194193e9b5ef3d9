/**
 * The CertificateSigningRequest schema (certificates/v1). Protobuf numbers follow Kubernetes'
 * certificates/v1 generated.proto.
 */
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';

/** Key usages a request may ask for (RFC 5280 key usages and extended key usages), as Kubernetes names them. */
export const KEY_USAGES = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
] as const;

export const CertificateSigningRequestSpec = t.struct('certificates.v1.CertificateSigningRequestSpec', {
  request: t.required(1, t.bytes(), {
    always: true,
    description: 'A PKCS#10 certificate request in a "CERTIFICATE REQUEST" PEM block (base64 again in JSON). Its signature must verify.',
  }),
  signerName: t.required(7, t.string(), {
    always: true,
    description: 'The signer asked to issue the certificate, a qualified name such as "example.com/my-signer". List and watch can select on it (spec.signerName).',
  }),
  expirationSeconds: t.field(8, t.int32(), {
    pointer: true,
    description: 'The requested lifetime of the certificate, at least 600 (10 minutes). Signers may issue a different one.',
  }),
  usages: t.field(5, t.list(t.string({ enum: KEY_USAGES }), { listType: 'atomic' }), {
    description: 'The key usages asked for, e.g. "digital signature", "key encipherment", "client auth". At least one.',
  }),
  username: t.field(2, t.string(), { description: 'The user that created the request. Set by the server on create; immutable.' }),
  uid: t.field(3, t.string(), { description: 'The uid of the user that created the request. Set by the server on create; immutable.' }),
  groups: t.field(4, t.list(t.string(), { listType: 'atomic' }), {
    description: 'The groups of the user that created the request. Set by the server on create; immutable.',
  }),
  extra: t.field(6, t.map(t.list(t.string())), {
    description: 'Extra attributes of the user that created the request. Set by the server on create; immutable.',
  }),
}, { description: 'What is asked for: the request, the signer, the usages, and who asked. Immutable once created.' });

export const CertificateSigningRequestCondition = t.struct('certificates.v1.CertificateSigningRequestCondition', {
  type: t.required(1, t.string(), {
    always: true,
    description: 'Approved or Denied (through /approval; exclusive), Failed (through /status), or another type. One condition per type; Approved, Denied and Failed cannot be removed.',
  }),
  status: t.required(6, t.string(), { always: true, description: 'True, False or Unknown; Approved, Denied and Failed may only be True.' }),
  reason: t.field(2, t.string(), { description: 'A brief reason for the state.' }),
  message: t.field(3, t.string(), { description: 'A human-readable explanation.' }),
  lastUpdateTime: t.field(4, t.time(), { description: 'When the condition was last updated; the server fills it in when unset.' }),
  lastTransitionTime: t.field(5, t.time(), { description: 'When the condition last changed status; the server fills it in when unset.' }),
}, { description: 'A condition of a certificate request.' });

export const CertificateSigningRequestStatus = t.struct('certificates.v1.CertificateSigningRequestStatus', {
  conditions: t.field(1, t.list(CertificateSigningRequestCondition, { listType: 'map', listMapKeys: ['type'] }), {
    description: 'Approved, Denied, Failed and other conditions of the request.',
  }),
  certificate: t.field(2, t.bytes(), {
    description:
      'The issued certificate, set by the signer through /status once the request is approved: CERTIFICATE PEM blocks (the first is the certificate, the rest intermediates). Immutable once set.',
  }),
}, { description: 'Whether the request is approved, denied or failed, and the issued certificate.' });

export const CertificateSigningRequestSchema = t.struct('certificates.v1.CertificateSigningRequest', {
  ...objectHeader,
  spec: t.required(2, CertificateSigningRequestSpec, { description: 'The request. Immutable.' }),
  status: t.field(3, CertificateSigningRequestStatus, { description: 'Approval through /approval, the certificate through /status.' }),
}, {
  description:
    'Asks a signer for an X.509 certificate for a key the requester holds. It is approved or denied through /approval, then the signer issues the certificate through /status.',
});
export type CertificateSigningRequest = ObjectOf<typeof CertificateSigningRequestSchema>;
export type CsrCondition = NonNullable<CertificateSigningRequest['status']['conditions']>[number];
