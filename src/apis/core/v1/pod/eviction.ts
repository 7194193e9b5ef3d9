/**
 * `pods/<name>/eviction` (create): a policy/v1 (or v1beta1) Eviction deletes the pod unless a
 * PodDisruptionBudget forbids it, as Kubernetes' eviction endpoint does:
 *
 * - a pod that is Pending, Succeeded, Failed or already being deleted is deleted whatever the
 *   budgets say (a Pending one only if it did not change meanwhile);
 * - otherwise the budgets of the namespace that select the pod are found: none → deleted; more than
 *   one → 500 (Kubernetes does not support it); one → its status must allow a disruption. The
 *   budget's `disruptionsAllowed` is then decremented and the pod recorded in `disruptedPods`
 *   (compare-and-swap on the budget, so two evictions never spend one allowance), then the pod is
 *   deleted with the Eviction's DeleteOptions;
 * - a budget whose status is older than its spec, or that allows no disruption, answers 429
 *   TooManyRequests with a DisruptionBudget cause, which `kubectl drain` retries;
 * - a pod that is not ready while the budget is satisfied is deleted without spending an allowance.
 *
 * The answer is a Success Status with code 201.
 */
import { errors, StatusError } from '../../../../machinery/errors.js';
import { fieldErr } from '../../../../machinery/field-errors.js';
import { labelSelectorFromStructured, type StructuredLabelSelector } from '../../../../machinery/labels.js';
import type { ListerSource } from '../../../../machinery/lister.js';
import type { CreateSubresource, CreateSubresourceContext, StoreLookup } from '../../../../registry/define-resource.js';
import { DeleteOptions, objectHeader, t, type KubeObject, type ObjectOf } from '../../../../schema/index.js';
import type { PodDisruptionBudget } from '../../../policy/v1/poddisruptionbudget.js';
import { setDisruptionAllowedCondition } from '../../../policy/v1/disruption-condition.js';
import type { Pod } from '../pod.js';

export const EvictionSchema = t.struct('policy.v1.Eviction', {
  ...objectHeader,
  deleteOptions: t.field(2, DeleteOptions, { pointer: true, description: 'How the pod is deleted once the eviction is allowed.' }),
}, { description: 'Asks for a pod to be deleted as a voluntary disruption, subject to its disruption budget.' });
export type Eviction = ObjectOf<typeof EvictionSchema>;

/** Kubernetes refuses more pending disruptions than this per budget (the controller is behind). */
export const MAX_DISRUPTED_PODS = 2000;
const BUDGET_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";

function budgetRefusal(retryAfterSeconds: number, cause: string): StatusError {
  const err = new StatusError(429, 'TooManyRequests', BUDGET_MESSAGE, {
    causes: [{ reason: 'DisruptionBudget', message: cause }],
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
  });
  return err;
}

function isReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Pods a budget cannot protect: not running yet, finished, or already on their way out. */
function canIgnoreBudget(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp;
}

/** The budgets of the pod's namespace whose selector matches it (policy/v1: an empty selector matches all, none matches none). */
export function budgetsSelecting(pod: Pod, budgets: readonly PodDisruptionBudget[]): PodDisruptionBudget[] {
  return budgets.filter((pdb) => pdb.spec?.selector && labelSelectorFromStructured(pdb.spec.selector as StructuredLabelSelector).matches(pod.metadata.labels ?? {}));
}

/**
 * What the budget says about one more disruption, and the budget as it is to be stored after it
 * (undefined: store nothing). Throws the 429 or 403 Kubernetes answers. Pure.
 */
export function spendDisruption(pdb: PodDisruptionBudget, podName: string, now: Date, dryRun: boolean): PodDisruptionBudget | undefined {
  const status = pdb.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  const name = pdb.metadata.name ?? '';
  const gr = { group: 'policy', resource: 'poddisruptionbudget' };
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) {
    throw budgetRefusal(10, `The disruption budget ${name} is still being processed by the server.`);
  }
  if (status.disruptionsAllowed < 0) throw errors.forbidden(gr, name, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS) {
    throw errors.forbidden(gr, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (status.disruptionsAllowed === 0) {
    throw budgetRefusal(0, `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`);
  }
  if (dryRun) return undefined;
  const next = structuredClone(pdb) as PodDisruptionBudget;
  const nextStatus = (next.status = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 });
  if (nextStatus.disruptionsAllowed === 0) setDisruptionAllowedCondition(next, now);
  nextStatus.disruptedPods = { ...(status.disruptedPods ?? {}), [podName]: now.toISOString().replace(/\.\d{3}Z$/, 'Z') };
  return next;
}

function dryRunOf(eviction: Eviction, ctx: CreateSubresourceContext): boolean {
  const inBody = eviction.deleteOptions?.dryRun ?? [];
  for (const v of inBody) {
    if (v !== 'All') throw errors.invalid({ group: 'policy', kind: 'Eviction' }, eviction.metadata.name ?? '', [fieldErr.notSupported('deleteOptions.dryRun', v, ['All'])]);
  }
  return ctx.dryRun || inBody.length > 0;
}

export function evictionSubresource(listers: ListerSource, stores: StoreLookup): CreateSubresource {
  const policyGroup = 'policy';
  const budgets = listers.for<PodDisruptionBudget>(policyGroup, 'poddisruptionbudgets');
  return {
    kind: 'create',
    verbs: ['create'],
    request: { group: policyGroup, version: 'v1', kind: 'Eviction' },
    alsoAcceptedVersions: ['v1beta1'],
    schema: EvictionSchema,
    answersStatus: true,
    async create(name: string, sent: KubeObject, ctx: CreateSubresourceContext): Promise<KubeObject> {
      const eviction = sent as Eviction;
      if (eviction.metadata.name && eviction.metadata.name !== name) throw errors.badRequest('name in URL does not match name in Eviction object');
      const dryRun = dryRunOf(eviction, ctx);
      const podStore = stores('', 'pods');
      const pdbStore = stores(policyGroup, 'poddisruptionbudgets');
      if (!podStore || !pdbStore) throw errors.internal('the pod or disruption budget store is not available');
      const scope = { namespace: ctx.namespace, signal: ctx.signal, warnings: [] as string[], ...(ctx.user ? { user: ctx.user } : {}) };
      const deleteOptions = structuredClone(eviction.deleteOptions ?? {});
      delete deleteOptions.dryRun;
      const deletePod = async (extra: { resourceVersion?: string }) => {
        const options = extra.resourceVersion ? { ...deleteOptions, preconditions: { ...deleteOptions.preconditions, resourceVersion: extra.resourceVersion } } : deleteOptions;
        await podStore.delete(scope, name, options, { dryRun });
        for (const w of scope.warnings) ctx.warn(w);
        return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as KubeObject;
      };

      const pod = (await podStore.get(ctx.namespace, name, undefined, ctx.signal)).object.parse<Pod>();
      if (canIgnoreBudget(pod)) {
        // A Pending pod that started running meanwhile must face its budget: delete only this version.
        return deletePod(pod.status?.phase === 'Pending' && !pod.metadata.deletionTimestamp ? { resourceVersion: pod.metadata.resourceVersion ?? '' } : {});
      }
      await budgets.synced(ctx.signal);
      const matching = budgetsSelecting(pod, budgets.list(ctx.namespace));
      if (matching.length > 1) throw errors.internal('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
      const [budget] = matching;
      if (!budget) return deletePod({});
      const status = budget.status;
      // An unready pod does not count as healthy: while the budget is met, it may go without spending an allowance.
      if (!isReady(pod) && status && status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0) {
        return deletePod({ resourceVersion: pod.metadata.resourceVersion ?? '' });
      }
      const budgetName = budget.metadata.name ?? '';
      if (dryRun) {
        spendDisruption(budget, name, ctx.now, true);
      } else {
        await pdbStore.update(
          scope,
          budgetName,
          (current) => {
            if (!current) throw errors.notFound({ group: policyGroup, resource: 'poddisruptionbudgets' }, budgetName);
            return spendDisruption(current as PodDisruptionBudget, name, new Date(), false) ?? current;
          },
          { dryRun: false, subresource: 'status', allowCreate: false },
        );
      }
      return deletePod({});
    },
  };
}
