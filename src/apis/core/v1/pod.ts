/**
 * Pod (core/v1): a group of containers scheduled together. Created Pending with its QoS class;
 * afterwards the spec is immutable except container images, activeDeadlineSeconds (set or lowered)
 * and added tolerations, and status changes only through `/status`.
 */
import { defineResource, statusSubresource } from '../../../registry/define-resource.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { bindingSubresource } from './pod/binding.js';
import { evictionSubresource } from './pod/eviction.js';
import { defaultPodObject } from './pod/defaults.js';
import { PodSpec } from './pod/pod-spec.js';
import { PodStatus } from './pod/pod-status.js';
import { podQOSClass } from './pod/qos.js';
import { validateEphemeralContainersUpdate, validatePodCreate, validatePodSpecRules, validatePodStatusUpdate, validatePodUpdate } from './pod/validation/pod.js';
import { podTable } from './pod/table.js';

export const PodSchema = t.struct('core.v1.Pod', {
  ...objectHeader,
  spec: t.field(2, PodSpec, { description: 'What the pod should run: its containers, volumes and scheduling constraints.' }),
  status: t.field(3, PodStatus, { description: 'What the pod is, as last observed. Read-only.' }),
}, { description: 'A group of containers that run together on one node, sharing network and storage.' });
export type Pod = ObjectOf<typeof PodSchema>;

const FIELD_NAMES = ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP', 'status.nominatedNodeName'] as const;

export const podResource = defineResource<Pod>((names, env) => {
  return {
    group: '',
    version: 'v1',
    kind: 'Pod',
    resource: 'pods',
    singular: 'pod',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    schema: PodSchema,
    table: podTable,
    fixture: () => ({ spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } }),
    strategy: {
      nameValidator: nameValidators.dnsSubdomain,
      selectableFieldNames: FIELD_NAMES,
      selectableFields: (pod) => ({
        'spec.nodeName': pod.spec.nodeName ?? '',
        'spec.restartPolicy': pod.spec.restartPolicy ?? '',
        'spec.schedulerName': pod.spec.schedulerName ?? '',
        'spec.serviceAccountName': pod.spec.serviceAccountName ?? '',
        'status.phase': pod.status.phase ?? '',
        'status.podIP': pod.status.podIPs?.[0]?.ip ?? pod.status.podIP ?? '',
        'status.nominatedNodeName': pod.status.nominatedNodeName ?? '',
      }),
      defaults: (pod) => defaultPodObject(pod),
      prepareForCreate(pod) {
        pod.status = { phase: 'Pending', qosClass: podQOSClass(pod.spec) };
      },
      validate: (pod) => validatePodSpecRules(pod, names),
      validateCreate: (pod) => validatePodCreate(pod),
      validateUpdate: (pod, old) => validatePodUpdate(pod, old),
    },
    subresources: {
      status: statusSubresource<Pod>({
        prepareForUpdate(pod, old) {
          // Old kubelets corrupt owner references; a status write never changes them.
          if (old.metadata.ownerReferences) pod.metadata.ownerReferences = structuredClone(old.metadata.ownerReferences);
          else delete pod.metadata.ownerReferences;
        },
        validateUpdate: (pod, old) => validatePodStatusUpdate(pod, old),
      }),
      binding: bindingSubresource<Pod>(),
      ...(env.listers && env.stores ? { eviction: evictionSubresource(env.listers, env.stores) } : {}),
      // Debug containers are added to a running pod here, and only here; everything else stays as stored.
      ephemeralcontainers: {
        kind: 'partial',
        verbs: ['get', 'patch', 'update'],
        merge(sent, current) {
          const next = structuredClone(current);
          next.metadata.resourceVersion = sent.metadata.resourceVersion;
          if (sent.spec.ephemeralContainers === undefined) delete next.spec.ephemeralContainers;
          else next.spec.ephemeralContainers = structuredClone(sent.spec.ephemeralContainers);
          return next;
        },
        validateUpdate: (pod, old) => validateEphemeralContainersUpdate(pod, old, names, names.labelKey('config.mirror')),
      },
    },
  };
});
