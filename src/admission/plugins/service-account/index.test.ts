import { describe, expect, it } from 'vitest';
import { staticLister } from '../../../../test/helpers/static-lister.js';
import type { ServiceAccount } from '../../../apis/core/v1/serviceaccount.js';
import { createApiNames, type ApiNames } from '../../../machinery/api-names.js';
import { isStatusError } from '../../../machinery/errors.js';
import type { KubeObject } from '../../../schema/index.js';
import type { AdmissionAttributes } from '../../types.js';
import { serviceAccountAdmission } from './index.js';
import { shouldAutomount } from './token-volume.js';

const orch = createApiNames('orch.io');
const k8s = createApiNames('k8s.io');
const NS = 'team';

const account = (name: string, extra: Partial<ServiceAccount> = {}): ServiceAccount => ({ metadata: { name, namespace: NS, ...(extra.metadata ?? {}) }, ...extra }) as ServiceAccount;

function plugin(names: ApiNames, accounts: ServiceAccount[] = [account('default')], namespaces: { metadata: { name: string; deletionTimestamp?: string }; status: { phase: string } }[] = [{ metadata: { name: NS }, status: { phase: 'Active' } }]) {
  return serviceAccountAdmission(names, {
    serviceAccounts: staticLister(accounts),
    namespaces: staticLister(namespaces),
    defaultAccountWaitMs: 0,
    generateName: (prefix) => `${prefix}abcde`,
  });
}

const pod = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: NS, ...(annotations ? { annotations } : {}) },
    spec: { containers: [{ name: 'app', image: 'img' }], ...spec },
  }) as unknown as KubeObject & { spec: any };

const attrs = (object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  resource: 'pods',
  subresource: '',
  kind: 'Pod',
  namespace: NS,
  name: 'web',
  object,
  dryRun: false,
  signal: new AbortController().signal,
  ...over,
});

async function refusal(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isStatusError(e)) return { code: e.status.code ?? 0, message: e.status.message ?? '' };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('ServiceAccount admission', () => {
  it('names default and mounts the bound token volume in every container (orch.io names)', async () => {
    const p = pod({ initContainers: [{ name: 'init', image: 'img' }] });
    await plugin(orch).admit?.(attrs(p));
    expect(p.spec.serviceAccountName).toBe('default');
    expect(p.spec.serviceAccount).toBe('default');
    const mount = { name: 'api-access-abcde', readOnly: true, mountPath: '/var/run/secrets/orch.io/serviceaccount' };
    expect(p.spec.initContainers[0].volumeMounts).toEqual([mount]);
    expect(p.spec.containers[0].volumeMounts).toEqual([mount]);
    expect(p.spec.volumes).toEqual([
      {
        name: 'api-access-abcde',
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
            { configMap: { name: 'orch-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
          ],
        },
      },
    ]);
  });

  it("uses Kubernetes' names under k8s.io", async () => {
    const p = pod();
    await plugin(k8s).admit?.(attrs(p));
    expect(p.spec.volumes[0].name).toBe('kube-api-access-abcde');
    expect(p.spec.volumes[0].projected.sources[1].configMap.name).toBe('kube-root-ca.crt');
    expect(p.spec.containers[0].volumeMounts[0].mountPath).toBe('/var/run/secrets/kubernetes.io/serviceaccount');
  });

  it('leaves a container that mounts something at the token path alone, and reuses an existing token volume', async () => {
    const path = '/var/run/secrets/orch.io/serviceaccount';
    const p = pod({
      containers: [
        { name: 'own', image: 'img', volumeMounts: [{ name: 'mine', mountPath: path }] },
        { name: 'plain', image: 'img' },
      ],
      volumes: [{ name: 'mine', emptyDir: {} }, { name: 'api-access-zzzzz', emptyDir: {} }],
    });
    await plugin(orch).admit?.(attrs(p));
    expect(p.spec.containers[0].volumeMounts).toEqual([{ name: 'mine', mountPath: path }]);
    expect(p.spec.containers[1].volumeMounts).toEqual([{ name: 'api-access-zzzzz', readOnly: true, mountPath: path }]);
    expect(p.spec.volumes.map((v: any) => v.name)).toEqual(['mine', 'api-access-zzzzz']);
  });

  it('adds no volume when every container already mounts the path', async () => {
    const path = '/var/run/secrets/orch.io/serviceaccount';
    const p = pod({ containers: [{ name: 'own', image: 'img', volumeMounts: [{ name: 'x', mountPath: path }] }], volumes: [{ name: 'x', emptyDir: {} }] });
    await plugin(orch).admit?.(attrs(p));
    expect(p.spec.volumes).toEqual([{ name: 'x', emptyDir: {} }]);
  });

  // [pod's setting, account's setting, orch.io (document 3), k8s.io (Kubernetes)]
  it.each([
    [undefined, undefined, true, true],
    [true, undefined, true, true],
    [false, undefined, false, false],
    [undefined, true, true, true],
    [undefined, false, false, false],
    [true, false, false, true],
    [false, true, false, false],
    [true, true, true, true],
    [false, false, false, false],
  ])('automounts with pod %s and account %s: orch.io %s, k8s.io %s', (podSays, accountSays, orchWants, k8sWants) => {
    const sa = accountSays === undefined ? {} : { automountServiceAccountToken: accountSays };
    const p = { spec: { containers: [], ...(podSays === undefined ? {} : { automountServiceAccountToken: podSays }) } } as unknown as Parameters<typeof shouldAutomount>[2];
    expect(shouldAutomount(orch, sa, p)).toBe(orchWants);
    expect(shouldAutomount(k8s, sa, p)).toBe(k8sWants);
  });

  it("copies the account's imagePullSecrets only into a pod that has none", async () => {
    const accounts = [account('default', { imagePullSecrets: [{ name: 'registry' }] })];
    const bare = pod();
    await plugin(orch, accounts).admit?.(attrs(bare));
    expect(bare.spec.imagePullSecrets).toEqual([{ name: 'registry' }]);
    const own = pod({ imagePullSecrets: [{ name: 'mine' }] });
    await plugin(orch, accounts).admit?.(attrs(own));
    expect(own.spec.imagePullSecrets).toEqual([{ name: 'mine' }]);
  });

  it("refuses a pod whose account does not exist, in Kubernetes' words", async () => {
    const r = await refusal(plugin(orch).admit?.(attrs(pod({ serviceAccountName: 'robot' }))) as Promise<void>);
    expect(r).toEqual({ code: 403, message: 'pods "web" is forbidden: error looking up service account team/robot: serviceaccount "robot" not found' });
    const none = await refusal(plugin(orch, []).admit?.(attrs(pod())) as Promise<void>);
    expect(none.message).toBe('pods "web" is forbidden: error looking up service account team/default: serviceaccount "default" not found');
  });

  it('leaves a pod in a missing namespace to NamespaceLifecycle', async () => {
    await expect(plugin(orch, [], []).admit?.(attrs(pod()))).resolves.toBeUndefined();
  });

  it('changes nothing on update and on other resources', async () => {
    const p = pod();
    await plugin(orch).admit?.(attrs(p, { operation: 'UPDATE', oldObject: pod() }));
    expect(p.spec.serviceAccountName).toBeUndefined();
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } as KubeObject;
    await plugin(orch).admit?.(attrs(cm, { resource: 'configmaps', kind: 'ConfigMap' }));
    expect(cm).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
  });

  it('never changes a mirror pod, and refuses one that names an account, a Secret or a token projection', async () => {
    const mirror = { 'orch.io/config.mirror': 'hash' };
    const p = pod({}, mirror);
    await plugin(orch).admit?.(attrs(p));
    expect(p.spec.serviceAccountName).toBeUndefined();
    expect(p.spec.volumes).toBeUndefined();
    const cases: [Record<string, unknown>, string][] = [
      [{ serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
      [{ volumes: [{ name: 's', secret: { secretName: 'x' } }] }, 'a mirror pod may not reference secrets'],
      [{ containers: [{ name: 'a', image: 'i', envFrom: [{ secretRef: { name: 'x' } }] }] }, 'a mirror pod may not reference secrets'],
      [{ volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] }, 'a mirror pod may not use ServiceAccountToken volume projections'],
    ];
    for (const [spec, message] of cases) {
      const r = await refusal(plugin(orch).validate?.(attrs(pod(spec, mirror))) as Promise<void>);
      expect(r).toEqual({ code: 403, message: `pods "web" is forbidden: ${message}` });
    }
  });

  it('limits pods of an account annotated enforce-mountable-secrets to the Secrets it lists', async () => {
    const enforcing = account('default', { metadata: { name: 'default', namespace: NS, annotations: { 'orch.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'ok' }] } as Partial<ServiceAccount>);
    const allowed = pod({ automountServiceAccountToken: false, volumes: [{ name: 'v', secret: { secretName: 'ok' } }] });
    await plugin(orch, [enforcing]).admit?.(attrs(allowed));
    const r = await refusal(plugin(orch, [enforcing]).admit?.(attrs(pod({ containers: [{ name: 'app', image: 'i', env: [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'other', key: 'k' } } }] }] }))) as Promise<void>);
    expect(r.message).toBe('pods "web" is forbidden: container app with envVar PW referencing secret.secretName="other" is not allowed because service account default does not reference that secret');
    const eph = pod({ serviceAccountName: 'default', ephemeralContainers: [{ name: 'dbg', image: 'i', envFrom: [{ secretRef: { name: 'other' } }] }] });
    const e = await refusal(plugin(orch, [enforcing]).validate?.(attrs(eph, { operation: 'UPDATE', subresource: 'ephemeralcontainers', oldObject: pod() })) as Promise<void>);
    expect(e.message).toBe('pods "web" is forbidden: ephemeral container dbg with envFrom referencing secret.secretName="other" is not allowed because service account default does not reference that secret');
  });
});
