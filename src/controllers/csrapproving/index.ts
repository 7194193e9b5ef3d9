/**
 * The approving controller (kube-controller-manager's csrapproving): a pending request for the
 * kubelet client signer that the kubelet client signer would accept is approved when its requester
 * may create `certificatesigningrequests/selfnodeclient` (the request is for the requester's own
 * node name) or `certificatesigningrequests/nodeclient`, asked as a SubjectAccessReview of the
 * requester recorded in the spec. Anything else is left for a person or another approver.
 */
import type { CertificateSigningRequest } from '../../apis/certificates/v1/types.js';
import type { AccessReviewer } from '../../registry/define-resource.js';
import { isStatusError } from '../../machinery/errors.js';
import { certificateRequestInfo, type CertificateRequestInfo } from '../../machinery/x509/sign-request.js';
import type { ControllerContext, RunningController } from '../framework/context.js';
import { hasCertificate, hasTrueCondition, nowText } from '../csrsigning/conditions.js';
import { kubeletClientProblem, signerName } from '../csrsigning/signers.js';

interface Recognizer {
  subresource: 'selfnodeclient' | 'nodeclient';
  recognize(csr: CertificateSigningRequest, req: CertificateRequestInfo): boolean;
  message: string;
}

/** Which auto-approvals a request qualifies for, most specific first. Pure. */
export function recognizers(kubeletClientSigner: string): Recognizer[] {
  const isNodeClient = (csr: CertificateSigningRequest, req: CertificateRequestInfo): boolean =>
    csr.spec.signerName === kubeletClientSigner && kubeletClientProblem(req, csr.spec.usages ?? []) === undefined;
  return [
    {
      subresource: 'selfnodeclient',
      recognize: (csr, req) => isNodeClient(csr, req) && csr.spec.username === req.commonName,
      message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
    },
    { subresource: 'nodeclient', recognize: isNodeClient, message: 'Auto approving kubelet client certificate after SubjectAccessReview.' },
  ];
}

const pending = (csr: CertificateSigningRequest): boolean => !hasCertificate(csr) && !hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');

/** Recognized but not allowed: retried with backoff (the requester may be granted it later), logged quietly. */
class NotApprovedYet extends Error {}

export function startCsrApprovingController(ctx: ControllerContext, reviewer: AccessReviewer): RunningController {
  const { names, log } = ctx;
  const group = names.group('certificates');
  const csrs = ctx.listers.for<CertificateSigningRequest>(group, 'certificatesigningrequests');
  const client = ctx.client.resource(group, 'certificatesigningrequests');
  const kinds = recognizers(signerName(names, 'kube-apiserver-client-kubelet'));

  const allowed = async (csr: CertificateSigningRequest, subresource: string): Promise<boolean> => {
    const { spec } = csr;
    const answer = await reviewer.review(
      { username: spec.username ?? '', ...(spec.uid ? { uid: spec.uid } : {}), groups: [...(spec.groups ?? [])], ...(spec.extra ? { extra: structuredClone(spec.extra) as Record<string, string[]> } : {}) },
      { resourceAttributes: { group, resource: 'certificatesigningrequests', verb: 'create', subresource } },
      ctx.signal,
    );
    return answer.allowed;
  };

  const sync = async (name: string): Promise<void> => {
    const csr = csrs.get('', name);
    if (!csr || !pending(csr)) return;
    let req: CertificateRequestInfo;
    try {
      req = certificateRequestInfo(Buffer.from(csr.spec.request ?? '', 'base64'));
    } catch (e) {
      throw new Error(`unable to parse csr ${JSON.stringify(name)}: ${(e as Error).message}`);
    }
    const tried: string[] = [];
    for (const r of kinds) {
      if (!r.recognize(csr, req)) continue;
      tried.push(r.subresource);
      if (!(await allowed(csr, r.subresource))) continue;
      try {
        await client.update(
          '',
          name,
          (current) => {
            const cur = current as CertificateSigningRequest;
            if (!pending(cur)) return cur;
            cur.status.conditions = [...(cur.status.conditions ?? []), { type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.message, lastUpdateTime: nowText() }];
            return cur;
          },
          'approval',
        );
      } catch (e) {
        if (!isStatusError(e, 'NotFound')) throw e;
      }
      log.info('certificate request auto-approved', { csr: name, as: r.subresource });
      return;
    }
    if (tried.length) throw new NotApprovedYet(`recognized csr ${JSON.stringify(name)} as [${tried.join(' ')}] but subject access review was not approved`);
  };

  const queue = ctx.workQueue(
    async (name) => {
      try {
        await sync(name);
      } catch (e) {
        if (e instanceof NotApprovedYet) log.debug(e.message);
        throw e;
      }
    },
    { maxRetryMs: 60_000 },
  );
  const off = csrs.onChange((ev) => {
    if (ev.type !== 'DELETED' && pending(ev.object)) queue.add(ev.object.metadata.name ?? '');
  });
  for (const csr of csrs.list()) if (pending(csr)) queue.add(csr.metadata.name ?? '');
  return { stop: off };
}
