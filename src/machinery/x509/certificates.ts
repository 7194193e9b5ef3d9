/**
 * Makes X.509 certificates: a self-signed certificate authority and the serving and client
 * certificates it signs. Keys are ECDSA P-256 (generated in about a millisecond, unlike RSA), written
 * as PKCS#8 PEM, which both Node's TLS and Go's `tls.X509KeyPair` (kubectl) read.
 *
 * No file I/O; every call makes fresh keys and random serial numbers. Throws only when a given PEM
 * is not a certificate or an ECDSA P-256 key.
 */
import { createHash, webcrypto, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { parseIP } from '../ip.js';

/** A certificate and its private key, both PEM. */
export interface CertificateAndKey {
  certPem: string;
  keyPem: string;
}

export interface LeafSpec {
  commonName: string;
  /** Subject organisations (Kubernetes reads a client certificate's O as the user's groups). */
  organizations?: readonly string[];
  /** Subject alternative names: host names and IP addresses (IPv4 or IPv6 text). */
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
  usage: 'server' | 'client';
  validForDays: number;
  /** Overrides the validity period (tests make expired and not-yet-valid certificates). */
  validity?: { notBefore: Date; notAfter: Date };
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const HASH = 'SHA-256';
const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;
/** Clocks of clients and server may disagree a little; a certificate made now must already be valid. */
const BACKDATE_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
// pkijs would otherwise pick a global engine; handing it Node's own Web Crypto keeps it explicit.
const engine = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as EngineCrypto });

/** A new certificate authority, self-signed, valid for `validForDays`. */
export async function createCertificateAuthority(commonName: string, validForDays: number): Promise<CertificateAndKey> {
  const keys = await generateKeys();
  const cert = await baseCertificate(commonName, [], commonName, validForDays, keys.publicKey);
  const ski = await keyIdentifier(cert);
  cert.extensions = [
    extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: true }).toSchema()),
    extension(OID.keyUsage, true, keyUsageBits(['digitalSignature', 'keyCertSign', 'cRLSign'])),
    extension(OID.subjectKeyIdentifier, false, new asn1js.OctetString({ valueHex: ski })),
  ];
  await cert.sign(keys.privateKey, HASH, engine);
  return { certPem: certificatePem(cert), keyPem: await privateKeyPem(keys.privateKey) };
}

/** A serving or client certificate for `spec`, signed by `ca`. */
export async function issueCertificate(ca: CertificateAndKey, spec: LeafSpec): Promise<CertificateAndKey> {
  const caCert = parseCertificate(ca.certPem);
  const caKey = await importPrivateKey(ca.keyPem);
  const keys = await generateKeys();
  const cert = await baseCertificate(spec.commonName, spec.organizations ?? [], '', spec.validForDays, keys.publicKey);
  if (spec.validity) {
    cert.notBefore.value = spec.validity.notBefore;
    cert.notAfter.value = spec.validity.notAfter;
  }
  cert.issuer = caCert.subject;
  const names = [
    ...(spec.dnsNames ?? []).map((value) => new pkijs.GeneralName({ type: 2, value })),
    ...(spec.ipAddresses ?? []).map((ip) => new pkijs.GeneralName({ type: 7, value: new asn1js.OctetString({ valueHex: ipBytes(ip) }) })),
  ];
  cert.extensions = [
    extension(OID.basicConstraints, true, new pkijs.BasicConstraints({ cA: false }).toSchema()),
    extension(OID.keyUsage, true, keyUsageBits(['digitalSignature'])),
    extension(OID.extKeyUsage, false, new pkijs.ExtKeyUsage({ keyPurposes: [spec.usage === 'server' ? OID.serverAuth : OID.clientAuth] }).toSchema()),
    extension(OID.authorityKeyIdentifier, false, new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: await keyIdentifier(caCert) }) }).toSchema()),
    ...(names.length ? [extension(OID.subjectAltName, false, new pkijs.GeneralNames({ names }).toSchema())] : []),
  ];
  await cert.sign(caKey, HASH, engine);
  return { certPem: certificatePem(cert), keyPem: await privateKeyPem(keys.privateKey) };
}

/**
 * The subject's common name and organisations, as Go's crypto/x509 reads them (Kubernetes' user
 * and groups of a client certificate): the last CN wins, every O in order. `der` is the
 * certificate's DER (X509Certificate.raw). Throws when it is not a certificate.
 */
export function subjectNames(der: Uint8Array): { commonName: string; organizations: string[] } {
  const cert = pkijs.Certificate.fromBER(der);
  let commonName = '';
  const organizations: string[] = [];
  for (const tv of cert.subject.typesAndValues) {
    const value = attributeText(tv.value);
    if (value === undefined) continue;
    if (tv.type === OID.commonName) commonName = value;
    else if (tv.type === OID.organization) organizations.push(value);
  }
  return { commonName, organizations };
}

function attributeText(value: unknown): string | undefined {
  const block = (value as { valueBlock?: { value?: unknown } } | undefined)?.valueBlock;
  return typeof block?.value === 'string' ? block.value : undefined;
}

/** Whether `certPem` is still valid `marginMs` from now. */
export function validFor(certPem: string, marginMs: number, now = Date.now()): boolean {
  const cert = new X509Certificate(certPem);
  return Date.parse(cert.validFrom) <= now && Date.parse(cert.validTo) > now + marginMs;
}

async function generateKeys(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

async function baseCertificate(commonName: string, organizations: readonly string[], issuerCommonName: string, validForDays: number, publicKey: webcrypto.CryptoKey): Promise<pkijs.Certificate> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ valueHex: serialNumber() });
  cert.subject = distinguishedName(commonName, organizations);
  if (issuerCommonName) cert.issuer = distinguishedName(issuerCommonName, []);
  const now = Date.now();
  cert.notBefore.value = new Date(now - BACKDATE_MS);
  cert.notAfter.value = new Date(now + validForDays * DAY_MS);
  await cert.subjectPublicKeyInfo.importKey(publicKey, engine);
  return cert;
}

/**
 * One attribute per relative distinguished name, in the conventional order (O before CN). pkijs
 * alone would put every attribute into one multi-valued RDN, so the encoding is handed to it.
 */
function distinguishedName(commonName: string, organizations: readonly string[]): pkijs.RelativeDistinguishedNames {
  const typesAndValues = [
    ...organizations.map((o) => new pkijs.AttributeTypeAndValue({ type: OID.organization, value: new asn1js.Utf8String({ value: o }) })),
    new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: commonName }) }),
  ];
  const encoded = new asn1js.Sequence({ value: typesAndValues.map((tv) => new asn1js.Set({ value: [tv.toSchema()] })) }).toBER(false);
  return new pkijs.RelativeDistinguishedNames({ typesAndValues, valueBeforeDecode: encoded });
}

/** 128 random bits, positive and without a leading zero byte (DER's minimal integer form). */
function serialNumber(): ArrayBuffer {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x40;
  return bytes.buffer;
}

/** The SHA-1 of the subject public key, as RFC 5280 §4.2.1.2 suggests for key identifiers. */
async function keyIdentifier(cert: pkijs.Certificate): Promise<ArrayBuffer> {
  const key = cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
  return new Uint8Array(createHash('sha1').update(key).digest()).buffer;
}

type KeyUsageName = 'digitalSignature' | 'keyCertSign' | 'cRLSign';
const KEY_USAGE_BIT: Record<KeyUsageName, number> = { digitalSignature: 0, keyCertSign: 5, cRLSign: 6 };

/** The KeyUsage BIT STRING, trailing zero bits dropped as DER requires. */
function keyUsageBits(usages: readonly KeyUsageName[]): asn1js.BitString {
  let byte = 0;
  for (const u of usages) byte |= 0x80 >> KEY_USAGE_BIT[u];
  let unused = 0;
  while (unused < 7 && !(byte & (1 << unused))) unused++;
  return new asn1js.BitString({ valueHex: new Uint8Array([byte]).buffer, unusedBits: unused });
}

function extension(extnID: string, critical: boolean, value: asn1js.AsnType): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
}

function ipBytes(text: string): ArrayBuffer {
  const ip = parseIP(text);
  if (!ip) throw new Error(`${JSON.stringify(text)} is not an IP address`);
  const length = ip.family === 'IPv4' ? 4 : 16;
  const bytes = new Uint8Array(length);
  let v = ip.value;
  for (let i = length - 1; i >= 0; i--) {
    bytes[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return bytes.buffer;
}

function parseCertificate(pem: string): pkijs.Certificate {
  const der = new X509Certificate(pem).raw;
  return pkijs.Certificate.fromBER(der);
}

async function importPrivateKey(pem: string): Promise<webcrypto.CryptoKey> {
  const body = /-----BEGIN PRIVATE KEY-----([\s\S]*?)-----END PRIVATE KEY-----/.exec(pem);
  if (!body) throw new Error('the certificate authority key is not a PKCS#8 PEM private key');
  return webcrypto.subtle.importKey('pkcs8', Buffer.from(body[1] ?? '', 'base64'), ALGORITHM, false, ['sign']) as Promise<webcrypto.CryptoKey>;
}

function certificatePem(cert: pkijs.Certificate): string {
  return pemBlock('CERTIFICATE', Buffer.from(cert.toSchema(true).toBER(false)));
}

async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  return pemBlock('PRIVATE KEY', Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key)));
}

function pemBlock(type: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join('\n')}\n-----END ${type}-----\n`;
}
