/**
 * ResourceQuota: refuses a create (or an update of a service or claim) that would take the
 * namespace past one of its quotas, with Kubernetes' 403 messages, and charges what it admits to
 * each quota's `status.used`. The charge is a compare-and-swap on the quota's resourceVersion that
 * re-checks the limit against the quota as stored, retried on a lost race, so concurrent creates
 * cannot overshoot. A dry run is checked but charges nothing. Runs last among the validating
 * plugins (it counts only what every other plugin let through). The quota controller
 * (src/controllers/resourcequota) fills `status.hard` and recomputes `status.used`, giving back
 * what was charged for writes that failed later and for deleted objects.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import { isStatusError } from '../../../machinery/errors.js';
import type { Lister } from '../../../machinery/lister.js';
import { admissionForbidden } from '../../forbidden.js';
import type { ObjectWriter } from '../../object-writer.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../types.js';
import { chargedUsed, evaluateQuotas, exceeded, type QuotaInfo } from '../../../apis/core/v1/quota/check.js';
import { objectUsage } from '../../../apis/core/v1/quota/usage.js';

/** Updates change usage only for these (Kubernetes' service and claim evaluators handle UPDATE). */
const UPDATE_EVALUATED = new Set(['services', 'persistentvolumeclaims']);

const evaluated = (a: AdmissionAttributes): boolean => {
  if (a.subresource !== '' || a.namespace === '' || !a.object) return false;
  if (a.operation === 'CREATE') return true;
  return a.operation === 'UPDATE' && a.group === '' && UPDATE_EVALUATED.has(a.resource) && !!a.oldObject;
};

export function resourceQuota(names: ApiNames, quotas: Lister<QuotaInfo>, writer: ObjectWriter): AdmissionPlugin {
  const storageGroup = names.group('storage');
  return {
    name: 'ResourceQuota',
    async validate(a) {
      if (!evaluated(a)) return;
      const inNamespace = quotas.list(a.namespace);
      if (inNamespace.length === 0) return;
      const verdict = evaluateQuotas(inNamespace, {
        group: a.group,
        resource: a.resource,
        object: a.object,
        usage: objectUsage(a.group, a.resource, a.object, storageGroup),
        ...(a.operation === 'UPDATE' ? { oldUsage: objectUsage(a.group, a.resource, a.oldObject, storageGroup) } : {}),
        storageGroup,
      });
      if (!verdict.allowed) throw admissionForbidden(a, verdict.message);
      if (a.dryRun) return;
      for (const [name, charge] of verdict.charges) {
        try {
          await writer.update('', 'resourcequotas', a.namespace, name, 'status', (current) => {
            const q = current as QuotaInfo;
            // The stored quota may have moved since the lister saw it: the limit is checked again here.
            const refusal = exceeded(q, charge);
            if (refusal) throw admissionForbidden(a, refusal);
            (current as { status?: Record<string, unknown> }).status = { ...(q.status ?? {}), used: chargedUsed(q, charge) };
            return current;
          });
        } catch (e) {
          // A quota deleted meanwhile limits nothing.
          if (!isStatusError(e, 'NotFound')) throw e;
        }
      }
    },
  };
}
