/** Table columns of networking/v1: IngressClass (CONTROLLER, PARAMETERS) and Ingress (CLASS, HOSTS, ADDRESS, PORTS). */
import { age, ageColumn, column, defineTable, nameColumn } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';

type IngressClassShape = KubeObject & { spec?: { controller?: string; parameters?: { apiGroup?: string; kind?: string; name?: string } } };

export const ingressClassTable = defineTable<IngressClassShape>({
  columns: [
    nameColumn,
    column('Controller', 'Controller that is responsible for handling this class'),
    column('Parameters', 'A reference to a resource with additional parameters'),
    ageColumn,
  ],
  cells: (ic, ctx) => {
    const p = ic.spec?.parameters;
    const parameters = p ? `${p.kind ?? ''}${p.apiGroup ? `.${p.apiGroup}` : ''}/${p.name ?? ''}` : '<none>';
    return [ic.metadata.name ?? '', ic.spec?.controller ?? '', parameters, age(ic, ctx)];
  },
});

type IngressShape = KubeObject & {
  spec?: { ingressClassName?: string; rules?: { host?: string }[]; tls?: unknown[] };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
};

/** Up to three hosts, then how many rules more; `*` when no rule names a host. */
function hosts(rules: readonly { host?: string }[]): string {
  const max = 3;
  const list: string[] = [];
  let more = false;
  for (const r of rules) {
    if (list.length === max) more = true;
    if (!more && r.host) list.push(r.host);
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${rules.length - max} more...` : list.join(',');
}

export const ingressTable = defineTable<IngressShape>({
  columns: [
    nameColumn,
    column('Class', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'Ports of TLS configurations that open'),
    ageColumn,
  ],
  cells: (ing, ctx) => {
    const addresses = new Set<string>();
    for (const i of ing.status?.loadBalancer?.ingress ?? []) {
      const a = i.ip || i.hostname;
      if (a) addresses.add(a);
    }
    return [
      ing.metadata.name ?? '',
      ing.spec?.ingressClassName ?? '<none>',
      hosts(ing.spec?.rules ?? []),
      [...addresses].join(','),
      (ing.spec?.tls ?? []).length ? '80, 443' : '80',
      age(ing, ctx),
    ];
  },
});
