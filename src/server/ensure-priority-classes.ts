/**
 * Creates the system PriorityClasses (system-node-critical, system-cluster-critical) at start when
 * they are missing, as kube-apiserver's scheduling post-start hook does; stored ones are left as
 * they are. Another server creating them at the same moment is not an error.
 */
import { SYSTEM_PRIORITY_CLASSES } from '../apis/scheduling/v1/priorityclass.js';
import type { InProcessClient } from '../client/in-process-client.js';
import type { ApiNames } from '../machinery/api-names.js';
import { isStatusError } from '../machinery/errors.js';
import type { Logger } from '../machinery/logger.js';

export async function ensureSystemPriorityClasses(client: InProcessClient, names: ApiNames, log: Logger): Promise<void> {
  const group = names.group('scheduling');
  const classes = client.resource(group, 'priorityclasses');
  for (const pc of SYSTEM_PRIORITY_CLASSES) {
    if (await classes.get('', pc.name)) continue;
    try {
      await classes.create('', {
        apiVersion: `${group}/v1`,
        kind: 'PriorityClass',
        metadata: { name: pc.name },
        value: pc.value,
        description: pc.description,
        preemptionPolicy: 'PreemptLowerPriority',
      });
      log.info('created the system priority class', { name: pc.name, value: pc.value });
    } catch (e) {
      if (!isStatusError(e, 'AlreadyExists')) throw e;
    }
  }
}
