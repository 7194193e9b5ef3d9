/**
 * PKCS#10 certificate requests (RFC 2986) and X.509 certificates as a CertificateSigningRequest
 * carries them: the request must be a `CERTIFICATE REQUEST` PEM block whose DER parses and whose
 * signature verifies with the key it holds; an issued certificate must be `CERTIFICATE` blocks.
 * The checks and their messages follow Go's crypto/x509, which Kubernetes uses. Pure.
 */
import { createPublicKey, constants, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { decodeAllPem, decodePem } from '../../../machinery/pem.js';
import { Asn1Error, children, expectTag, oidText, readElement, smallInteger, TAG, type DerElement } from './der.js';

export class CsrError extends Error {}

type KeyFamily = 'RSA' | 'ECDSA' | 'Ed25519';

interface SignatureAlgorithm {
  family: KeyFamily;
  /** Node's digest name; null for Ed25519, which hashes by itself. */
  hash: string | null;
  /** RSASSA-PSS salt length, when the algorithm is PSS. */
  pssSalt?: number;
}

const HASH_BY_OID: Record<string, { name: string; size: number }> = {
  '2.16.840.1.101.3.4.2.1': { name: 'sha256', size: 32 },
  '2.16.840.1.101.3.4.2.2': { name: 'sha384', size: 48 },
  '2.16.840.1.101.3.4.2.3': { name: 'sha512', size: 64 },
};

const ALGORITHMS: Record<string, SignatureAlgorithm> = {
  '1.2.840.113549.1.1.5': { family: 'RSA', hash: 'sha1' },
  '1.2.840.113549.1.1.11': { family: 'RSA', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { family: 'RSA', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { family: 'RSA', hash: 'sha512' },
  '1.2.840.10045.4.1': { family: 'ECDSA', hash: 'sha1' },
  '1.2.840.10045.4.3.2': { family: 'ECDSA', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { family: 'ECDSA', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { family: 'ECDSA', hash: 'sha512' },
  '1.3.101.112': { family: 'Ed25519', hash: null },
};

/** Algorithms Go knows but refuses to verify with. */
const INSECURE: Record<string, string> = {
  '1.2.840.113549.1.1.2': 'MD2-RSA',
  '1.2.840.113549.1.1.4': 'MD5-RSA',
};

const RSA_PSS = '1.2.840.113549.1.1.10';
const MGF1 = '1.2.840.113549.1.1.8';
const UNIMPLEMENTED = 'x509: cannot verify signature: algorithm unimplemented';

/** Go's names for the key types, as its mismatch message prints them. */
const GO_KEY_TYPE: Record<string, string> = { rsa: '*rsa.PublicKey', ec: '*ecdsa.PublicKey', ed25519: 'ed25519.PublicKey', dsa: '*dsa.PublicKey' };
const FAMILY_OF_KEY: Record<string, KeyFamily> = { rsa: 'RSA', ec: 'ECDSA', ed25519: 'Ed25519' };

interface ParsedRequest {
  /** The DER of certificationRequestInfo: what the signature covers. */
  signed: Buffer;
  spki: Buffer;
  algorithm: DerElement;
  signature: Buffer;
}

function parseRequest(der: Buffer): ParsedRequest {
  const { el: outer, next } = readElement(der);
  expectTag(outer, TAG.SEQUENCE, 'CertificationRequest');
  if (next !== der.length) throw new Asn1Error('asn1: syntax error: trailing data');
  const [info, algorithm, signature] = children(outer);
  expectTag(info, TAG.SEQUENCE, 'certificationRequestInfo');
  expectTag(algorithm, TAG.SEQUENCE, 'signatureAlgorithm');
  expectTag(signature, TAG.BIT_STRING, 'signature');
  const [version, subject, spki, attributes] = children(info as DerElement);
  smallInteger(expectTag(version, TAG.INTEGER, 'version'));
  expectTag(subject, TAG.SEQUENCE, 'subject');
  expectTag(spki, TAG.SEQUENCE, 'subjectPKInfo');
  expectTag(attributes, TAG.CONTEXT_0, 'attributes');
  const bits = (signature as DerElement).content;
  if (bits.length === 0 || bits[0] !== 0) throw new Asn1Error('asn1: structure error: invalid padding bits in BIT STRING');
  return { signed: (info as DerElement).raw, spki: (spki as DerElement).raw, algorithm: algorithm as DerElement, signature: bits.subarray(1) };
}

/** RSASSA-PSS parameters as Go accepts them: SHA-256/384/512, MGF1 with the same hash, salt = hash size. */
function pssAlgorithm(params: DerElement | undefined): SignatureAlgorithm | undefined {
  if (!params || params.tag !== TAG.SEQUENCE) return undefined;
  let hash: string | undefined;
  let mgfHash: string | undefined;
  let salt = 20;
  for (const field of children(params)) {
    const [inner] = children(field);
    if (field.tag === TAG.CONTEXT_0 && inner) hash = oidText(children(inner)[0]?.content ?? Buffer.alloc(0));
    else if (field.tag === TAG.CONTEXT_1 && inner) {
      const [mgf, mgfParams] = children(inner);
      if (!mgf || oidText(mgf.content) !== MGF1 || !mgfParams) return undefined;
      mgfHash = oidText(children(mgfParams)[0]?.content ?? Buffer.alloc(0));
    } else if (field.tag === TAG.CONTEXT_2 && inner) salt = smallInteger(inner);
  }
  const h = hash ? HASH_BY_OID[hash] : undefined;
  if (!h || mgfHash !== hash || salt !== h.size) return undefined;
  return { family: 'RSA', hash: h.name, pssSalt: salt };
}

function signatureAlgorithm(alg: DerElement): SignatureAlgorithm {
  const [oidEl, params] = children(alg);
  const oid = oidText(expectTag(oidEl, TAG.OID, 'algorithm').content);
  const insecure = INSECURE[oid];
  if (insecure) throw new CsrError(`x509: cannot verify signature: insecure algorithm ${insecure}`);
  const known = oid === RSA_PSS ? pssAlgorithm(params) : ALGORITHMS[oid];
  if (!known) throw new CsrError(UNIMPLEMENTED);
  return known;
}

function publicKey(spki: Buffer): KeyObject {
  try {
    return createPublicKey({ key: spki, format: 'der', type: 'spki' });
  } catch {
    throw new CsrError('x509: failed to parse public key');
  }
}

function checkSignature(req: ParsedRequest): void {
  const alg = signatureAlgorithm(req.algorithm);
  const key = publicKey(req.spki);
  const keyType = key.asymmetricKeyType ?? '';
  if (FAMILY_OF_KEY[keyType] !== alg.family) {
    if (!FAMILY_OF_KEY[keyType] && !GO_KEY_TYPE[keyType]) throw new CsrError(UNIMPLEMENTED);
    throw new CsrError(`x509: signature algorithm specifies an ${alg.family} public key, but have public key of type ${GO_KEY_TYPE[keyType] ?? keyType}`);
  }
  let ok: boolean;
  try {
    ok =
      alg.pssSalt !== undefined
        ? verify(alg.hash, req.signed, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: alg.pssSalt }, req.signature)
        : verify(alg.hash, req.signed, key, req.signature);
  } catch {
    ok = false;
  }
  if (ok) return;
  if (alg.family === 'RSA') throw new CsrError('crypto/rsa: verification error');
  throw new CsrError(`x509: ${alg.family} verification failure`);
}

/**
 * Why `pem` is not a valid signed certificate request, or undefined when it is. Only the first PEM
 * block counts, as in Kubernetes.
 */
export function certificateRequestProblem(pem: Buffer): string | undefined {
  const found = decodePem(pem);
  if (!found || found.block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  try {
    checkSignature(parseRequest(found.block.bytes));
    return undefined;
  } catch (e) {
    if (e instanceof CsrError || e instanceof Asn1Error) return e.message;
    throw e;
  }
}

/**
 * Why `pem` is not an acceptable issued certificate, or undefined when it is (or is empty): one or
 * more `CERTIFICATE` blocks without headers, each a parseable X.509 certificate. Text around the
 * blocks is allowed (RFC 7468 explanatory text).
 */
export function certificateProblem(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  const blocks = decodeAllPem(pem);
  for (const block of blocks) {
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (Object.keys(block.headers).length) return 'no PEM block headers are permitted';
    if (block.bytes.length === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
    try {
      new X509Certificate(block.bytes);
    } catch {
      return 'x509: malformed certificate';
    }
  }
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  return undefined;
}
