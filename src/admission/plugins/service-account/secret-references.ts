/**
 * Which Secrets a pod names, for the ServiceAccount plugin's two checks: a mirror pod may name none,
 * and an account annotated `<label domain>/enforce-mountable-secrets: "true"` limits its pods to
 * the Secrets it lists (Kubernetes' limitSecretReferences, with its messages). Pure.
 */
import type { Pod } from '../../../apis/core/v1/pod.js';
import type { ServiceAccount } from '../../../apis/core/v1/serviceaccount.js';

type Spec = Pod['spec'];
type AnyContainer = NonNullable<Spec['containers']>[number] | NonNullable<Spec['ephemeralContainers']>[number];

/** Every Secret name the pod refers to: pull secrets, env and envFrom of all containers, volume sources. */
export function podSecretNames(spec: Spec): string[] {
  const out: string[] = [];
  const add = (name: string | undefined): void => {
    if (name) out.push(name);
  };
  for (const s of spec.imagePullSecrets ?? []) add(s.name);
  const containers: AnyContainer[] = [...(spec.initContainers ?? []), ...spec.containers, ...(spec.ephemeralContainers ?? [])];
  for (const c of containers) {
    for (const e of c.env ?? []) add(e.valueFrom?.secretKeyRef?.name);
    for (const e of c.envFrom ?? []) add(e.secretRef?.name);
  }
  for (const v of spec.volumes ?? []) {
    add(v.secret?.secretName);
    add(v.azureFile?.secretName);
    add(v.cephfs?.secretRef?.name);
    add(v.cinder?.secretRef?.name);
    add(v.flexVolume?.secretRef?.name);
    add(v.rbd?.secretRef?.name);
    add(v.scaleIO?.secretRef?.name);
    add(v.iscsi?.secretRef?.name);
    add(v.storageos?.secretRef?.name);
    add(v.csi?.nodePublishSecretRef?.name);
    for (const p of v.projected?.sources ?? []) add(p.secret?.name);
  }
  return out;
}

/** Whether the account limits its pods to the Secrets it lists (Go's ParseBool on the annotation). */
export function enforcesMountableSecrets(sa: ServiceAccount, annotation: string): boolean {
  const v = sa.metadata.annotations?.[annotation];
  return v !== undefined && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v);
}

/** The first env or envFrom Secret of `containers` outside `mountable`, in Kubernetes' words. */
function containerReference(containers: readonly AnyContainer[], what: string, mountable: ReadonlySet<string>, account: string): string | undefined {
  for (const c of containers) {
    for (const e of c.env ?? []) {
      const ref = e.valueFrom?.secretKeyRef?.name;
      if (ref !== undefined && !mountable.has(ref)) {
        return `${what} ${c.name} with envVar ${e.name} referencing secret.secretName="${ref}" is not allowed because service account ${account} does not reference that secret`;
      }
    }
    for (const e of c.envFrom ?? []) {
      const ref = e.secretRef?.name;
      if (ref !== undefined && !mountable.has(ref)) {
        return `${what} ${c.name} with envFrom referencing secret.secretName="${ref}" is not allowed because service account ${account} does not reference that secret`;
      }
    }
  }
  return undefined;
}

const mountableOf = (sa: ServiceAccount): Set<string> => new Set((sa.secrets ?? []).map((s) => s.name ?? ''));

/** The first reference the account does not allow, as Kubernetes words it; undefined when all are allowed. */
export function disallowedSecretReference(sa: ServiceAccount, spec: Spec): string | undefined {
  const account = sa.metadata.name ?? '';
  const mountable = mountableOf(sa);
  for (const v of spec.volumes ?? []) {
    const name = v.secret?.secretName;
    if (name !== undefined && !mountable.has(name)) {
      return `volume with secret.secretName="${name}" is not allowed because service account ${account} does not reference that secret`;
    }
  }
  const inContainers =
    containerReference(spec.initContainers ?? [], 'init container', mountable, account) ?? containerReference(spec.containers, 'container', mountable, account);
  if (inContainers) return inContainers;
  const pullable = new Set((sa.imagePullSecrets ?? []).map((s) => s.name ?? ''));
  for (const [i, ref] of (spec.imagePullSecrets ?? []).entries()) {
    if (!pullable.has(ref.name ?? '')) {
      return `imagePullSecrets[${i}].name="${ref.name ?? ''}" is not allowed because service account ${account} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}

/** As disallowedSecretReference, for the ephemeral containers added through `pods/ephemeralcontainers`. */
export function disallowedEphemeralSecretReference(sa: ServiceAccount, spec: Spec): string | undefined {
  return containerReference(spec.ephemeralContainers ?? [], 'ephemeral container', mountableOf(sa), sa.metadata.name ?? '');
}
