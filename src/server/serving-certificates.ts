/**
 * The certificates the secure listener serves with and trusts, and the administrator's client
 * certificate for the kubeconfig. What the flags name is read from its files; what they leave out
 * comes from a certificate authority of the server's own, made once and kept under `<dataDir>/pki`
 * (private keys 0600), so kubeconfigs stay valid across restarts. Without a data directory the
 * material lives in memory for this server only.
 *
 * - serving certificate: `--tls-cert-file`/`--tls-private-key-file`, else issued by the own CA for
 *   `altNames` (reissued when a name is missing or it nears expiry; the CA and kubeconfigs stay);
 * - client CA: `--client-ca-file`, else the own CA, which then also issues the administrator's
 *   certificate (CN orch-admin, O system:masters). With a client CA of the operator's there is no
 *   administrator certificate: the server cannot sign one that it would trust.
 *
 * Throws an Error naming the flag or file when something given cannot be used.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCertificateAuthority, issueCertificate, validFor, type CertificateAndKey } from '../machinery/x509/certificates.js';
import type { Logger } from '../machinery/logger.js';

export const ADMIN_USER = 'orch-admin';
export const ADMIN_GROUP = 'system:masters';

export interface ServingCertificateOptions {
  /** Where the own CA and the certificates it issued are kept (`<dataDir>/pki`); memory when absent. */
  dataDir?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  clientCaFile?: string;
  /** The authenticating proxy's CA bundle (`--requestheader-client-ca-file`). */
  requestheaderClientCaFile?: string;
  /** Names a generated serving certificate must carry. */
  altNames: { dnsNames: readonly string[]; ipAddresses: readonly string[] };
  log: Logger;
}

export interface ServingMaterial {
  /** The serving certificate (chain) and key, PEM. */
  serving: CertificateAndKey;
  /** The CA a client should trust for this server; absent when the serving certificate came from the flags. */
  servingCaPem?: string;
  /** The CA bundle client certificates are verified against. */
  clientCaPem: string;
  /** The administrator's client certificate, when the client CA is the server's own. */
  admin?: CertificateAndKey;
  /** The authenticating proxy's CA bundle, when one is configured. */
  requestheaderCaPem?: string;
  /** The server's own CA with its key, when it has one: the default cluster signing CA of certificate requests. */
  ownCa?: CertificateAndKey;
}

/**
 * Every CA a client certificate may verify against in the TLS handshake: the client CA and the
 * proxy's. Each authenticator then accepts only chains of its own bundle.
 */
export function trustedClientCas(material: ServingMaterial): string {
  return material.requestheaderCaPem === undefined ? material.clientCaPem : `${material.clientCaPem.trimEnd()}\n${material.requestheaderCaPem}`;
}

const CA_DAYS = 3650;
const LEAF_DAYS = 365;
/** A certificate this close to its end is replaced at start-up rather than left to expire while serving. */
const RENEW_MARGIN_MS = 24 * 60 * 60 * 1000;

export async function loadServingMaterial(options: ServingCertificateOptions): Promise<ServingMaterial> {
  const given = readGivenPair(options);
  const givenClientCa = options.clientCaFile !== undefined ? readClientCa(options.clientCaFile, '--client-ca-file') : undefined;
  const proxyCa = options.requestheaderClientCaFile !== undefined ? { requestheaderCaPem: readClientCa(options.requestheaderClientCaFile, '--requestheader-client-ca-file') } : {};
  if (given && givenClientCa) return { serving: given, clientCaPem: givenClientCa, ...proxyCa };

  const store = options.dataDir !== undefined ? fileStore(join(options.dataDir, 'pki')) : memoryStore();
  let fresh = false;
  let ca = store.read('ca');
  if (!ca || !validFor(ca.certPem, RENEW_MARGIN_MS)) {
    if (ca) options.log.info('the certificate authority expires soon; making a new one (kubeconfigs written before stop working)', { dir: store.where });
    ca = await createCertificateAuthority(`orch-apiserver-ca@${Math.floor(Date.now() / 1000)}`, CA_DAYS);
    store.write('ca', ca);
    fresh = true;
  }
  const caCert = new X509Certificate(ca.certPem);
  const current = (name: string, accept: (cert: X509Certificate) => boolean): CertificateAndKey | undefined => {
    const pair = fresh ? undefined : store.read(name);
    if (!pair) return undefined;
    const cert = new X509Certificate(pair.certPem);
    return cert.checkIssued(caCert) && cert.verify(caCert.publicKey) && validFor(pair.certPem, RENEW_MARGIN_MS) && accept(cert) ? pair : undefined;
  };

  let serving = given;
  if (!serving) {
    const { dnsNames, ipAddresses } = options.altNames;
    const covers = (cert: X509Certificate): boolean =>
      dnsNames.every((n) => cert.checkHost(n, { subject: 'never', wildcards: false }) !== undefined) && ipAddresses.every((ip) => cert.checkIP(ip) !== undefined);
    serving = current('apiserver', covers);
    if (!serving) {
      serving = await issueCertificate(ca, { commonName: 'orch-apiserver', dnsNames, ipAddresses, usage: 'server', validForDays: LEAF_DAYS });
      store.write('apiserver', serving);
    }
  }
  let admin: CertificateAndKey | undefined;
  if (!givenClientCa) {
    admin = current('admin', () => true);
    if (!admin) {
      admin = await issueCertificate(ca, { commonName: ADMIN_USER, organizations: [ADMIN_GROUP], usage: 'client', validForDays: LEAF_DAYS });
      store.write('admin', admin);
    }
  }
  return {
    serving,
    ...(given ? {} : { servingCaPem: ca.certPem }),
    clientCaPem: givenClientCa ?? ca.certPem,
    ...(admin ? { admin } : {}),
    ...proxyCa,
    ownCa: ca,
  };
}

function readGivenPair(options: ServingCertificateOptions): CertificateAndKey | undefined {
  const { tlsCertFile, tlsPrivateKeyFile } = options;
  if (tlsCertFile === undefined && tlsPrivateKeyFile === undefined) return undefined;
  if (tlsCertFile === undefined || tlsPrivateKeyFile === undefined) throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
  const certPem = readText(tlsCertFile, '--tls-cert-file');
  const keyPem = readText(tlsPrivateKeyFile, '--tls-private-key-file');
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw new Error(`--tls-cert-file ${tlsCertFile}: no PEM certificate in it`);
  }
  let key;
  try {
    key = createPrivateKey(keyPem);
  } catch {
    throw new Error(`--tls-private-key-file ${tlsPrivateKeyFile}: no PEM private key in it`);
  }
  if (!cert.checkPrivateKey(key)) throw new Error(`--tls-private-key-file ${tlsPrivateKeyFile} is not the key of the certificate in --tls-cert-file ${tlsCertFile}`);
  return { certPem, keyPem };
}

function readClientCa(file: string, flag: string): string {
  const pem = readText(file, flag);
  try {
    new X509Certificate(pem);
  } catch {
    throw new Error(`${flag} ${file}: no PEM certificate in it`);
  }
  return pem;
}

function readText(file: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${flag} ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

interface PairStore {
  readonly where: string;
  read(name: string): CertificateAndKey | undefined;
  write(name: string, pair: CertificateAndKey): void;
}

function memoryStore(): PairStore {
  const pairs = new Map<string, CertificateAndKey>();
  return { where: 'memory', read: (name) => pairs.get(name), write: (name, pair) => void pairs.set(name, pair) };
}

/**
 * `<dir>/<name>.crt` and `<name>.key`. A pair that is half there, or whose key is not the
 * certificate's (a crash between the two writes), counts as absent and is made anew; a file that
 * cannot be read as PEM at all is refused rather than silently replaced.
 */
function fileStore(dir: string): PairStore {
  return {
    where: dir,
    read(name) {
      const crt = join(dir, `${name}.crt`);
      const key = join(dir, `${name}.key`);
      if (!existsSync(crt) || !existsSync(key)) return undefined;
      let pair: CertificateAndKey;
      let matches: boolean;
      try {
        pair = { certPem: readFileSync(crt, 'utf8'), keyPem: readFileSync(key, 'utf8') };
        matches = new X509Certificate(pair.certPem).checkPrivateKey(createPrivateKey(pair.keyPem));
      } catch (e) {
        throw new Error(`cannot use ${crt} and ${key} (${(e as Error).message}); remove both to have new ones made`);
      }
      return matches ? pair : undefined;
    },
    write(name, pair) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Key first, certificate last: a crash in between leaves a pair that read() refuses or replaces.
      writeAtomically(join(dir, `${name}.key`), pair.keyPem, 0o600);
      writeAtomically(join(dir, `${name}.crt`), pair.certPem, 0o644);
    },
  };
}

function writeAtomically(path: string, text: string, mode: number): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode });
  renameSync(temp, path);
}

/** The names of the `kubernetes` Service in the default namespace, as kube-apiserver puts them in its certificate. */
const KUBERNETES_SERVICE_NAMES = ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];

/**
 * The names a generated serving certificate carries: loopback, the host name, the `kubernetes`
 * Service's names and cluster IP, and the addresses the server is reached at.
 */
export function servingAltNames(opts: { hostName: string; serviceIP: string; addresses: readonly (string | undefined)[] }): ServingCertificateOptions['altNames'] {
  const dnsNames = unique(['localhost', opts.hostName, ...KUBERNETES_SERVICE_NAMES].filter((n) => n !== ''));
  const ipAddresses = unique(['127.0.0.1', '::1', opts.serviceIP, ...opts.addresses.filter((a): a is string => a !== undefined && !isUnspecified(a))]);
  return { dnsNames, ipAddresses };
}

export function isUnspecified(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address === '';
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
