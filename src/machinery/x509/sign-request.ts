/**
 * Issues a certificate for a PKCS#10 request, as Kubernetes' local signer does: the request's
 * subject, public key and subject alternative names (DNS, IP, email, URI) are copied; key usages
 * and extended key usages come from the CertificateSigningRequest's `usages`; nothing else of the
 * request is kept; basic constraints say "not a CA"; a random 128-bit serial; NotBefore backdated
 * five minutes for clock skew; NotAfter never after the CA's. The CA key may be ECDSA (P-256,
 * P-384, P-521) or RSA.
 *
 * Pure apart from randomness. Throws an Error for a request that does not parse or a usage it does
 * not know ("unrecognized usage values: [...]", Kubernetes' words).
 */
import { createPrivateKey, webcrypto, X509Certificate, createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { decodePem } from '../pem.js';
import type { CertificateAndKey } from './certificates.js';

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
const engine = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as EngineCrypto });

/** The parts of a certificate request the signers look at. */
export interface CertificateRequestInfo {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  extensionRequest: '1.2.840.113549.1.9.14',
  subjectAltName: '2.5.29.17',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  subjectKeyIdentifier: '2.5.29.14',
};

/** RFC 5280 key usage bits, by Kubernetes' usage names. */
const KEY_USAGE_BITS: Record<string, number> = {
  signing: 0,
  'digital signature': 0,
  'content commitment': 1,
  'key encipherment': 2,
  'key agreement': 3,
  'data encipherment': 4,
  'cert sign': 5,
  'crl sign': 6,
  'encipher only': 7,
  'decipher only': 8,
};

/** Extended key usages by Kubernetes' usage names, in Go's ExtKeyUsage order (the order they are written in). */
const EXT_KEY_USAGES: [string, string][] = [
  ['any', '2.5.29.37.0'],
  ['server auth', '1.3.6.1.5.5.7.3.1'],
  ['client auth', '1.3.6.1.5.5.7.3.2'],
  ['code signing', '1.3.6.1.5.5.7.3.3'],
  ['email protection', '1.3.6.1.5.5.7.3.4'],
  ['s/mime', '1.3.6.1.5.5.7.3.4'],
  ['ipsec end system', '1.3.6.1.5.5.7.3.5'],
  ['ipsec tunnel', '1.3.6.1.5.5.7.3.6'],
  ['ipsec user', '1.3.6.1.5.5.7.3.7'],
  ['timestamping', '1.3.6.1.5.5.7.3.8'],
  ['ocsp signing', '1.3.6.1.5.5.7.3.9'],
  ['microsoft sgc', '1.3.6.1.4.1.311.10.3.3'],
  ['netscape sgc', '2.16.840.1.113730.4.1'],
];

const BACKDATE_MS = 5 * 60_000;
/** Certificates shorter than this keep their whole lifetime after the backdated NotBefore. */
const SHORT_MS = 8 * 3600_000;

function requestOf(pem: string | Buffer): pkijs.CertificationRequest {
  const found = decodePem(Buffer.isBuffer(pem) ? pem : Buffer.from(pem));
  if (!found || found.block.type !== 'CERTIFICATE REQUEST') throw new Error('PEM block type must be CERTIFICATE REQUEST');
  return pkijs.CertificationRequest.fromBER(new Uint8Array(found.block.bytes));
}

function text(value: unknown): string {
  const block = (value as { valueBlock?: { value?: unknown } } | undefined)?.valueBlock;
  return typeof block?.value === 'string' ? block.value : '';
}

function requestedExtensions(req: pkijs.CertificationRequest): pkijs.Extension[] {
  const attr = (req.attributes ?? []).find((a) => a.type === OID.extensionRequest);
  const first = attr?.values[0];
  return first ? new pkijs.Extensions({ schema: first }).extensions : [];
}

function ipText(bytes: Uint8Array): string {
  if (bytes.length === 4) return [...bytes].join('.');
  const groups: string[] = [];
  for (let i = 0; i < bytes.length; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** What a signer checks of a request: the subject's CN (the last) and Os, and the alternative names. Throws when it does not parse. */
export function certificateRequestInfo(pem: string | Buffer): CertificateRequestInfo {
  const req = requestOf(pem);
  const info: CertificateRequestInfo = { commonName: '', organizations: [], dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [] };
  for (const tv of req.subject.typesAndValues) {
    if (tv.type === OID.commonName) info.commonName = text(tv.value);
    else if (tv.type === OID.organization) info.organizations.push(text(tv.value));
  }
  for (const ext of requestedExtensions(req)) {
    if (ext.extnID !== OID.subjectAltName) continue;
    const names = pkijs.GeneralNames.fromBER(ext.extnValue.valueBlock.valueHexView);
    for (const n of names.names) {
      if (n.type === 1) info.emailAddresses.push(String(n.value));
      else if (n.type === 2) info.dnsNames.push(String(n.value));
      else if (n.type === 6) info.uris.push(String(n.value));
      else if (n.type === 7) info.ipAddresses.push(ipText((n.value as asn1js.OctetString).valueBlock.valueHexView));
    }
  }
  return info;
}

/** The KeyUsage bits and the extended key usage OIDs of `usages`; throws naming the usages it does not know. */
export function keyUsagesOf(usages: readonly string[]): { bits: number[]; extended: string[] } {
  const bits = new Set<number>();
  const extended = new Set<string>();
  const unknown: string[] = [];
  for (const u of usages) {
    const bit = KEY_USAGE_BITS[u];
    const ext = EXT_KEY_USAGES.find(([name]) => name === u);
    if (bit !== undefined) bits.add(bit);
    else if (ext) extended.add(ext[1]);
    else unknown.push(u);
  }
  if (unknown.length) throw new Error(`unrecognized usage values: [${unknown.map((u) => JSON.stringify(u)).join(' ')}]`);
  const order = EXT_KEY_USAGES.map(([, oid]) => oid);
  return { bits: [...bits].sort((a, b) => a - b), extended: [...extended].sort((a, b) => order.indexOf(a) - order.indexOf(b)) };
}

function keyUsageExtension(bits: number[]): pkijs.Extension {
  const bytes = new Uint8Array(2);
  for (const b of bits) bytes[b >> 3] = (bytes[b >> 3] ?? 0) | (0x80 >> (b & 7));
  const length = bits.some((b) => b >= 8) ? 2 : 1;
  const used = bytes.slice(0, length);
  const last = used[length - 1] ?? 0;
  let unused = 0;
  while (unused < 7 && last !== 0 && !(last & (1 << unused))) unused++;
  const value = new asn1js.BitString({ valueHex: used.buffer, unusedBits: last === 0 ? 0 : unused });
  return new pkijs.Extension({ extnID: OID.keyUsage, critical: true, extnValue: value.toBER(false) });
}

interface SigningKey {
  key: webcrypto.CryptoKey;
  hash: string;
}

async function importSigningKey(pem: string): Promise<SigningKey> {
  const key = createPrivateKey(pem);
  const der = key.export({ type: 'pkcs8', format: 'der' });
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    const named = curve === 'prime256v1' ? 'P-256' : curve === 'secp384r1' ? 'P-384' : curve === 'secp521r1' ? 'P-521' : undefined;
    if (!named) throw new Error(`the signing key's curve ${curve ?? ''} is not supported`);
    const hash = named === 'P-256' ? 'SHA-256' : named === 'P-384' ? 'SHA-384' : 'SHA-512';
    return { key: (await webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: named }, false, ['sign'])) as webcrypto.CryptoKey, hash };
  }
  if (key.asymmetricKeyType === 'rsa') {
    return { key: (await webcrypto.subtle.importKey('pkcs8', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign'])) as webcrypto.CryptoKey, hash: 'SHA-256' };
  }
  throw new Error(`the signing key is ${key.asymmetricKeyType ?? 'of an unknown type'}; RSA or ECDSA is needed`);
}

export interface SignOptions {
  usages: readonly string[];
  /** The certificate's lifetime. */
  ttlMs: number;
  now?: Date;
}

/** The issued certificate, PEM. */
export async function signCertificateRequest(ca: CertificateAndKey, requestPem: string | Buffer, opts: SignOptions): Promise<string> {
  const req = requestOf(requestPem);
  const usages = keyUsagesOf(opts.usages);
  const caX509 = new X509Certificate(ca.certPem);
  const caCert = pkijs.Certificate.fromBER(new Uint8Array(caX509.raw));
  const signing = await importSigningKey(ca.keyPem);
  const now = (opts.now ?? new Date()).getTime();
  const notBefore = now - BACKDATE_MS;
  let notAfter = opts.ttlMs < SHORT_MS ? notBefore + opts.ttlMs : now + opts.ttlMs;
  notAfter = Math.min(notAfter, Date.parse(caX509.validTo));

  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = webcrypto.getRandomValues(new Uint8Array(16));
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  cert.serialNumber = new asn1js.Integer({ valueHex: serial.buffer });
  cert.subject = req.subject;
  cert.issuer = caCert.subject;
  cert.notBefore.value = new Date(notBefore);
  cert.notAfter.value = new Date(notAfter);
  cert.subjectPublicKeyInfo = req.subjectPublicKeyInfo;
  const san = requestedExtensions(req).find((e) => e.extnID === OID.subjectAltName);
  const caKeyId = caCert.extensions?.find((e) => e.extnID === OID.subjectKeyIdentifier);
  const authorityKeyId = caKeyId
    ? asn1js.fromBER(caKeyId.extnValue.valueBlock.valueHexView).result as asn1js.OctetString
    : new asn1js.OctetString({ valueHex: new Uint8Array(createHash('sha1').update(caCert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest()).buffer });
  cert.extensions = [
    ...(usages.bits.length ? [keyUsageExtension(usages.bits)] : []),
    ...(usages.extended.length
      ? [new pkijs.Extension({ extnID: OID.extKeyUsage, critical: false, extnValue: new pkijs.ExtKeyUsage({ keyPurposes: usages.extended }).toSchema().toBER(false) })]
      : []),
    new pkijs.Extension({ extnID: OID.basicConstraints, critical: true, extnValue: new pkijs.BasicConstraints({ cA: false }).toSchema().toBER(false) }),
    new pkijs.Extension({
      extnID: OID.authorityKeyIdentifier,
      critical: false,
      extnValue: new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: authorityKeyId.valueBlock.valueHexView.slice().buffer }) }).toSchema().toBER(false),
    }),
    ...(san ? [new pkijs.Extension({ extnID: OID.subjectAltName, critical: san.critical, extnValue: san.extnValue.valueBlock.valueHexView.slice().buffer })] : []),
  ];
  await cert.sign(signing.key, signing.hash, engine);
  const der = Buffer.from(cert.toSchema(true).toBER(false));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
