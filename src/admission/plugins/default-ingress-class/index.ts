/**
 * DefaultIngressClass: a new Ingress that names no class gets the default IngressClass, the one
 * annotated `ingressclass.<domain>/is-default-class: "true"`. An Ingress carrying the legacy
 * `<label domain>/ingress.class` annotation is left alone, as are updates and subresources. When
 * several classes are marked default, the newest wins (ties: the lowest name), as in Kubernetes
 * since 1.25; with none marked, nothing changes.
 */
import type { ApiNames } from '../../../machinery/api-names.js';
import type { Lister } from '../../../machinery/lister.js';
import type { AdmissionPlugin } from '../../types.js';

/** What the plugin reads of an IngressClass. */
export interface IngressClassInfo {
  metadata: { name?: string; creationTimestamp?: string; annotations?: Record<string, string> };
}

/** The default class among `classes`, or undefined when none is marked. Pure. */
export function pickDefaultClass(classes: readonly IngressClassInfo[], annotation: string): IngressClassInfo | undefined {
  const defaults = classes.filter((c) => c.metadata.annotations?.[annotation] === 'true');
  const created = (c: IngressClassInfo): number => Date.parse(c.metadata.creationTimestamp ?? '') || 0;
  defaults.sort((a, b) => created(b) - created(a) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  return defaults[0];
}

export function defaultIngressClass(names: ApiNames, classes: Lister<IngressClassInfo>): AdmissionPlugin {
  const group = names.group('networking');
  const defaultAnnotation = names.labelSubKey('ingressclass', 'is-default-class');
  const legacyAnnotation = names.labelKey('ingress.class');
  return {
    name: 'DefaultIngressClass',
    async admit(a) {
      if (a.operation !== 'CREATE' || a.group !== group || a.resource !== 'ingresses' || a.subresource || !a.object) return;
      const obj = a.object as { metadata: { annotations?: Record<string, string> }; spec?: { ingressClassName?: string } };
      if (obj.spec?.ingressClassName !== undefined) return;
      if (obj.metadata.annotations && Object.prototype.hasOwnProperty.call(obj.metadata.annotations, legacyAnnotation)) return;
      // A class marked default an instant before must count: read after catching up with the store.
      await classes.synced(a.signal);
      const chosen = pickDefaultClass(classes.list(), defaultAnnotation);
      if (!chosen?.metadata.name) return;
      obj.spec = { ...(obj.spec ?? {}), ingressClassName: chosen.metadata.name };
    },
  };
}
