/**
 * The signing controller (kube-controller-manager's csrsigning): an approved request for one of the
 * built-in signers, not failed and not yet issued, gets its certificate from the cluster CA through
 * `/status`; one its signer refuses gets a `Failed` condition (reason SignerValidationFailure) and
 * no certificate. The lifetime is `spec.expirationSeconds` (at least ten minutes), at most the
 * cluster signing duration.
 *
 * The write checks that the stored request still has no certificate and no Failed condition, so a
 * request is signed once even when two instances run this controller at the same moment (leader
 * hand-over): the second write finds the certificate and gives up.
 */
import type { CertificateSigningRequest } from '../../apis/certificates/v1/types.js';
import type { CertificateAndKey } from '../../machinery/x509/certificates.js';
import { isStatusError } from '../../machinery/errors.js';
import { certificateRequestInfo, signCertificateRequest } from '../../machinery/x509/sign-request.js';
import type { ControllerContext, RunningController } from '../framework/context.js';
import { hasCertificate, hasTrueCondition, isApproved, nowText } from './conditions.js';
import { builtinSignerOf, signerProblem } from './signers.js';

export interface ClusterSigning {
  /** The CA certificates are issued by (`--cluster-signing-cert-file`/`--cluster-signing-key-file`). */
  ca: CertificateAndKey;
  /** `--cluster-signing-duration`: the longest lifetime issued (default a year). */
  durationMs: number;
}

/** kube-controller-manager's default `--cluster-signing-duration`: 8760h. */
export const DEFAULT_CLUSTER_SIGNING_DURATION_MS = 8760 * 3600_000;
const MIN_DURATION_MS = 600_000;

/** The lifetime of a certificate asked for `expirationSeconds`. Pure. */
export function certificateLifetimeMs(expirationSeconds: number | null | undefined, durationMs: number): number {
  if (expirationSeconds === undefined || expirationSeconds === null) return durationMs;
  const asked = expirationSeconds * 1000;
  if (asked < MIN_DURATION_MS) return MIN_DURATION_MS;
  return Math.min(asked, durationMs);
}

/** The request no longer needs this controller's write (another instance issued or failed it). */
class AlreadyDone extends Error {}

export function startCsrSigningController(ctx: ControllerContext, signing: ClusterSigning): RunningController {
  const { names, log } = ctx;
  const group = names.group('certificates');
  const csrs = ctx.listers.for<CertificateSigningRequest>(group, 'certificatesigningrequests');
  const client = ctx.client.resource(group, 'certificatesigningrequests');

  const needsWork = (csr: CertificateSigningRequest): boolean =>
    isApproved(csr) && !hasTrueCondition(csr, 'Failed') && !hasCertificate(csr) && builtinSignerOf(names, csr.spec.signerName) !== undefined;

  const writeStatus = async (name: string, change: (csr: CertificateSigningRequest) => void): Promise<void> => {
    try {
      await client.update(
        '',
        name,
        (current) => {
          const csr = current as CertificateSigningRequest;
          if (hasCertificate(csr) || hasTrueCondition(csr, 'Failed')) throw new AlreadyDone();
          change(csr);
          return csr;
        },
        'status',
      );
    } catch (e) {
      if (e instanceof AlreadyDone || isStatusError(e, 'NotFound')) return;
      throw e;
    }
  };

  const sync = async (name: string): Promise<void> => {
    const csr = csrs.get('', name);
    if (!csr || !needsWork(csr)) return;
    const signer = builtinSignerOf(names, csr.spec.signerName);
    if (!signer) return;
    const requestPem = Buffer.from(csr.spec.request ?? '', 'base64');
    let info;
    try {
      info = certificateRequestInfo(requestPem);
    } catch (e) {
      throw new Error(`unable to parse csr ${JSON.stringify(name)}: ${(e as Error).message}`);
    }
    const usages = csr.spec.usages ?? [];
    const problem = signerProblem(signer, info, usages);
    if (problem) {
      await writeStatus(name, (cur) => {
        cur.status.conditions = [
          ...(cur.status.conditions ?? []),
          { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: problem, lastUpdateTime: nowText() },
        ];
      });
      log.info('certificate request refused by its signer', { csr: name, signer: csr.spec.signerName, reason: problem });
      return;
    }
    const certificate = await signCertificateRequest(signing.ca, requestPem, { usages, ttlMs: certificateLifetimeMs(csr.spec.expirationSeconds, signing.durationMs) });
    await writeStatus(name, (cur) => {
      cur.status.certificate = Buffer.from(certificate).toString('base64');
    });
    log.info('certificate issued', { csr: name, signer: csr.spec.signerName });
  };

  const queue = ctx.workQueue(sync, { workers: 2 });
  const off = csrs.onChange((ev) => {
    if (ev.type !== 'DELETED' && needsWork(ev.object)) queue.add(ev.object.metadata.name ?? '');
  });
  for (const csr of csrs.list()) if (needsWork(csr)) queue.add(csr.metadata.name ?? '');
  return { stop: off };
}
