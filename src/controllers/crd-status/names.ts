/**
 * Which of a CRD's requested names it may have (Kubernetes' naming controller): a name another CRD
 * of the same group has already been given, or a resource the server serves in that group
 * already, is refused, and the CRD keeps the names it had. Pure.
 */
import type { CrdNames, CustomResourceDefinition } from '../../apis/apiextensions/index.js';

export interface NamingResult {
  /** The names to record in status.acceptedNames. */
  accepted: CrdNames;
  /** NamesAccepted: True (NoConflicts), or False with the first conflict. */
  condition: { status: 'True' | 'False'; reason: string; message: string };
}

/** Names taken in a group: by the other CRDs' accepted names, and by resources served otherwise. */
export interface TakenNames {
  resources: Set<string>;
  kinds: Set<string>;
}

export function takenNames(group: string, self: string, crds: readonly CustomResourceDefinition[], served: readonly { resource: string; kind: string; shortNames?: readonly string[]; singular?: string }[]): TakenNames {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const r of served) {
    resources.add(r.resource);
    if (r.singular) resources.add(r.singular);
    for (const s of r.shortNames ?? []) resources.add(s);
    kinds.add(r.kind);
    kinds.add(`${r.kind}List`);
  }
  for (const crd of crds) {
    if (crd.spec.group !== group || crd.metadata.name === self) continue;
    const a = crd.status?.acceptedNames;
    if (!a) continue;
    for (const n of [a.plural, a.singular, ...(a.shortNames ?? [])]) if (n) resources.add(n);
    for (const k of [a.kind, a.listKind]) if (k) kinds.add(k);
  }
  return { resources, kinds };
}

export function acceptNames(crd: CustomResourceDefinition, taken: TakenNames): NamingResult {
  const want = crd.spec.names;
  const conflict = (reason: string, name: string): NamingResult => ({
    accepted: crd.status?.acceptedNames ?? { plural: '', kind: '' },
    condition: { status: 'False', reason, message: `"${name}" is already in use` },
  });
  if (taken.resources.has(want.plural)) return conflict('PluralConflict', want.plural);
  if (want.singular && taken.resources.has(want.singular)) return conflict('SingularConflict', want.singular);
  for (const s of want.shortNames ?? []) if (taken.resources.has(s)) return conflict('ShortNamesConflict', s);
  if (taken.kinds.has(want.kind)) return conflict('KindConflict', want.kind);
  if (want.listKind && taken.kinds.has(want.listKind)) return conflict('ListKindConflict', want.listKind);
  return { accepted: structuredClone(want), condition: { status: 'True', reason: 'NoConflicts', message: 'no conflicts found' } };
}
