/** Service columns: TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S), AGE; SELECTOR for -o wide. */
import { age, ageColumn, column, defineTable, formatLabels, nameColumn } from '../../../../registry/define-resource.js';
import type { KubeObject } from '../../../../schema/index.js';

type ServiceShape = KubeObject & {
  spec?: {
    type?: string;
    clusterIPs?: string[];
    externalIPs?: string[];
    externalName?: string;
    selector?: Record<string, string>;
    ports?: { port?: number; nodePort?: number; protocol?: string }[];
  };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
};

function loadBalancerAddresses(svc: ServiceShape): string[] {
  const seen = new Set<string>();
  for (const i of svc.status?.loadBalancer?.ingress ?? []) {
    const a = i.ip || i.hostname;
    if (a) seen.add(a);
  }
  return [...seen];
}

function externalIP(svc: ServiceShape): string {
  const spec = svc.spec ?? {};
  const external = spec.externalIPs ?? [];
  switch (spec.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return external.length ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const all = [...loadBalancerAddresses(svc), ...external];
      return all.length ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return spec.externalName ?? '';
    default:
      return '<unknown>';
  }
}

function ports(svc: ServiceShape): string {
  const text = (svc.spec?.ports ?? [])
    .map((p) => (p.nodePort ? `${p.port ?? 0}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port ?? 0}/${p.protocol ?? ''}`))
    .join(',');
  return text || '<none>';
}

export const serviceTable = defineTable<ServiceShape>({
  columns: [
    nameColumn,
    column('Type', 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName'),
    column('Cluster-IP', 'The cluster IP address of the service'),
    column('External-IP', 'The addresses the service is reachable at from outside the cluster'),
    column('Port(s)', 'The ports the service exposes'),
    ageColumn,
    column('Selector', 'The labels of the pods the service routes to', { priority: 1 }),
  ],
  cells: (svc, ctx) => [
    svc.metadata.name ?? '',
    svc.spec?.type ?? '',
    svc.spec?.clusterIPs?.[0] ?? '<none>',
    externalIP(svc),
    ports(svc),
    age(svc, ctx),
    formatLabels(svc.spec?.selector),
  ],
});
