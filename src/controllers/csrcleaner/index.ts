/**
 * The cleaner (kube-controller-manager's csrcleaner): once an hour, and at start, it deletes requests
 * that are done with: issued and approved over an hour ago, denied or failed over an hour ago,
 * pending over a day, or whose certificate has expired.
 */
import { X509Certificate } from 'node:crypto';
import type { CertificateSigningRequest } from '../../apis/certificates/v1/types.js';
import { isStatusError } from '../../machinery/errors.js';
import type { ControllerContext, RunningController } from '../framework/context.js';
import { conditionOf, hasCertificate, hasTrueCondition } from '../csrsigning/conditions.js';

const HOUR_MS = 3600_000;
export const CLEANER_SCHEDULE = {
  pollingIntervalMs: HOUR_MS,
  approvedExpirationMs: HOUR_MS,
  deniedExpirationMs: HOUR_MS,
  failedExpirationMs: HOUR_MS,
  pendingExpirationMs: 24 * HOUR_MS,
} as const;

const olderThan = (time: string | null | undefined, ms: number, now: number): boolean => !!time && Date.parse(time) + ms < now;

/** Why `csr` should go now, or undefined to keep it. Pure. */
export function cleanupReason(csr: CertificateSigningRequest, now: number): string | undefined {
  const approved = conditionOf(csr, 'Approved');
  const denied = conditionOf(csr, 'Denied');
  const failed = conditionOf(csr, 'Failed');
  if (hasCertificate(csr) && approved?.status === 'True' && olderThan(approved.lastUpdateTime, CLEANER_SCHEDULE.approvedExpirationMs, now)) return 'it was approved and issued over an hour ago';
  if (denied?.status === 'True' && olderThan(denied.lastUpdateTime, CLEANER_SCHEDULE.deniedExpirationMs, now)) return 'it was denied over an hour ago';
  if (failed?.status === 'True' && olderThan(failed.lastUpdateTime, CLEANER_SCHEDULE.failedExpirationMs, now)) return 'it failed over an hour ago';
  const isPending = !hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied') && !hasTrueCondition(csr, 'Failed');
  if (isPending && olderThan(csr.metadata.creationTimestamp, CLEANER_SCHEDULE.pendingExpirationMs, now)) return 'it has been pending for over a day';
  if (hasCertificate(csr)) {
    try {
      const cert = new X509Certificate(Buffer.from(csr.status.certificate ?? '', 'base64'));
      if (Date.parse(cert.validTo) < now) return 'its certificate has expired';
    } catch {
      // An unreadable certificate is the signer's business, not the cleaner's.
    }
  }
  return undefined;
}

export function startCsrCleanerController(ctx: ControllerContext): RunningController {
  const group = ctx.names.group('certificates');
  const csrs = ctx.listers.for<CertificateSigningRequest>(group, 'certificatesigningrequests');
  const client = ctx.client.resource(group, 'certificatesigningrequests');

  const clean = async (name: string): Promise<void> => {
    const csr = csrs.get('', name);
    const reason = csr && cleanupReason(csr, Date.now());
    if (!csr || !reason) return;
    try {
      await client.delete('', name, { preconditions: { uid: csr.metadata.uid ?? '' } });
      ctx.log.info('certificate request cleaned up', { csr: name, reason });
    } catch (e) {
      if (!isStatusError(e, 'NotFound') && !isStatusError(e, 'Conflict')) throw e;
    }
  };
  const queue = ctx.workQueue(clean);
  const pass = async (): Promise<void> => {
    await csrs.synced(ctx.signal).catch(() => undefined);
    for (const csr of csrs.list()) queue.add(csr.metadata.name ?? '');
  };
  void pass();
  const timer = setInterval(() => void pass(), CLEANER_SCHEDULE.pollingIntervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
