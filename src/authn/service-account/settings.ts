/**
 * The service-account token settings, from the flags, with kube-apiserver 1.25's checks and words:
 *
 * - issuers (`--service-account-issuer`, repeatable): the first issues, all are accepted; default
 *   `https://kubernetes.default.svc.cluster.local` (kube-apiserver requires the flag; a zero-setup
 *   server picks the name its own `kubernetes` Service has);
 * - verification keys (`--service-account-key-file`, repeatable): default the serving key, plus the
 *   signing key when that is another one, so the server always accepts what it issues;
 * - the signing key (`--service-account-signing-key-file`): default the serving key; none in
 *   plain-HTTP mode without the flag (then no tokens are issued);
 * - the API audiences: `--api-audiences`, else the issuers;
 * - `--service-account-max-token-expiration`: 0 (no limit) or between an hour and 2^32 seconds;
 * - `--service-account-extend-token-expiration` (default true) and `--service-account-lookup`
 *   (default true), `--service-account-jwks-uri` (https).
 *
 * Throws an Error naming the flag when a value cannot be used. Reads the key files.
 */
import { readFileSync } from 'node:fs';
import { signingKeyFromPem, verificationKey, verificationKeysFromPem, type SigningKey, type VerificationKey } from './keys.js';

export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
export const MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

export interface ServiceAccountFlags {
  issuers?: readonly string[];
  keyFiles?: readonly string[];
  signingKeyFile?: string;
  apiAudiences?: readonly string[];
  /** 0 or absent: no limit beyond the API's own. */
  maxTokenExpirationSeconds?: number;
  extendTokenExpiration?: boolean;
  lookup?: boolean;
  jwksUri?: string;
}

export interface ServiceAccountSettings {
  readonly issuers: readonly string[];
  readonly verificationKeys: readonly VerificationKey[];
  readonly signingKey?: SigningKey;
  readonly apiAudiences: readonly string[];
  readonly maxTokenExpirationSeconds: number;
  readonly extendTokenExpiration: boolean;
  readonly lookup: boolean;
  readonly jwksUri?: string;
  /** What the operator should know (a serving key that cannot sign tokens). */
  readonly warnings: readonly string[];
}

function readFile(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`${what} ${file}: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}

function checkIssuers(issuers: readonly string[]): void {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const issuer of issuers) {
    if (issuer.includes(':') && !URL.canParse(issuer)) {
      errors.push(`service-account-issuer ${JSON.stringify(issuer)} contained a ':' but was not a valid URL`);
      continue;
    }
    if (issuer === '') {
      errors.push('service-account-issuer should not be an empty string');
      continue;
    }
    if (seen.has(issuer)) {
      errors.push(`service-account-issuer ${JSON.stringify(issuer)} is already specified`);
      continue;
    }
    seen.add(issuer);
  }
  if (errors.length) throw new Error(errors.join(', '));
}

export function resolveServiceAccountSettings(flags: ServiceAccountFlags, servingKeyPem: string | undefined): ServiceAccountSettings {
  const issuers = flags.issuers && flags.issuers.length > 0 ? [...flags.issuers] : [DEFAULT_SERVICE_ACCOUNT_ISSUER];
  checkIssuers(issuers);
  const max = flags.maxTokenExpirationSeconds ?? 0;
  if (max !== 0 && (max < 3600 || max > MAX_TOKEN_EXPIRATION_SECONDS)) throw new Error('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  if (flags.jwksUri !== undefined) {
    if (!URL.canParse(flags.jwksUri)) throw new Error(`service-account-jwks-uri must be a valid URL: ${JSON.stringify(flags.jwksUri)}`);
    if (new URL(flags.jwksUri).protocol !== 'https:') throw new Error(`service-account-jwks-uri requires https scheme, parsed as: ${flags.jwksUri}`);
  }

  const warnings: string[] = [];
  // The serving key serves as a default only when it is an RSA or ECDSA key (as kube-apiserver checks).
  let servingKey: SigningKey | undefined;
  if (servingKeyPem !== undefined) {
    try {
      servingKey = signingKeyFromPem(servingKeyPem);
    } catch {
      warnings.push('the serving key is not an RSA or ECDSA key, so it neither signs nor verifies service account tokens; set --service-account-signing-key-file and --service-account-key-file');
    }
  }
  let signingKey: SigningKey | undefined;
  if (flags.signingKeyFile !== undefined) {
    try {
      signingKey = signingKeyFromPem(readFile(flags.signingKeyFile, '--service-account-signing-key-file'));
    } catch (e) {
      throw new Error(`failed to parse --service-account-signing-key-file ${flags.signingKeyFile}: ${(e as Error).message}`);
    }
  } else {
    signingKey = servingKey;
  }

  let verificationKeys: VerificationKey[] = [];
  if (flags.keyFiles && flags.keyFiles.length > 0) {
    for (const file of flags.keyFiles) {
      try {
        verificationKeys.push(...verificationKeysFromPem(readFile(file, '--service-account-key-file')));
      } catch (e) {
        throw new Error(`error reading public key file ${file}: ${(e as Error).message}`);
      }
    }
    if (signingKey && !verificationKeys.some((k) => k.keyId === signingKey.keyId)) {
      throw new Error(
        `the public key of --service-account-signing-key-file ${flags.signingKeyFile ?? '(the serving key)'} is in none of the --service-account-key-file files: the tokens it signs would not verify. Add it to one of them.`,
      );
    }
  } else {
    const own = servingKey && verificationKey(servingKey.publicKey);
    if (own) verificationKeys.push(own);
    if (signingKey && !verificationKeys.some((k) => k.keyId === signingKey.keyId)) {
      const own = verificationKey(signingKey.publicKey);
      if (own) verificationKeys.push(own);
    }
  }
  return {
    issuers,
    verificationKeys,
    ...(signingKey ? { signingKey } : {}),
    apiAudiences: flags.apiAudiences && flags.apiAudiences.length > 0 ? [...flags.apiAudiences] : issuers,
    maxTokenExpirationSeconds: max,
    extendTokenExpiration: flags.extendTokenExpiration ?? true,
    lookup: flags.lookup ?? true,
    ...(flags.jwksUri !== undefined ? { jwksUri: flags.jwksUri } : {}),
    warnings,
  };
}
