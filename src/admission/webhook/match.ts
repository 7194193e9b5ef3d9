/**
 * Whether a webhook is called for a request, and as which version of the resource (Kubernetes'
 * ShouldCallHook): the namespace selector, the object selector, then the rules against the request
 * as sent; with matchPolicy Equivalent, against every other served version of the same resource.
 */
import { errors, StatusError } from '../../machinery/errors.js';
import type { Lister } from '../../machinery/lister.js';
import type { LabelSelector } from '../../machinery/labels.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import type { KubeObject } from '../../schema/index.js';
import { ruleMatches, type RuleTarget } from './rules.js';
import type { Webhook } from './types.js';
import type { ServedVersion, ServedVersions } from './versions.js';

/** A request as the matchers see it. */
export interface RequestView {
  readonly attrs: AdmissionAttributes;
  /** The version the request named. */
  readonly request: ServedVersion;
  /** Every served version of the resource, the request's included. */
  readonly versions: readonly ServedVersion[];
  /** The request's namespace; for a namespace object (but its creation), its own name, as Kubernetes says. */
  readonly namespace: string;
}

/** A call to make: the webhook, and the version of the resource it is shown. */
export interface Invocation {
  readonly hook: Webhook;
  readonly target: ServedVersion;
}

export interface NamespaceInfo {
  metadata: { labels?: Record<string, string> };
}

const isNamespaces = (a: Pick<AdmissionAttributes, 'group' | 'resource'>): boolean => a.group === '' && a.resource === 'namespaces';

export function requestView(attrs: AdmissionAttributes, served: ServedVersions): RequestView {
  const versions = served.of(attrs.group, attrs.resource);
  const gv = attrs.requestGroupVersion ?? { group: attrs.group, version: attrs.version };
  const request = versions.find((v) => v.group === gv.group && v.version === gv.version) ?? {
    group: gv.group,
    version: gv.version,
    resource: attrs.resource,
    kind: attrs.kind,
  };
  const namespace = isNamespaces(attrs) ? (attrs.operation === 'CREATE' ? '' : attrs.name) : attrs.namespace;
  return { attrs, request, versions: versions.length ? versions : [request], namespace };
}

function target(view: RequestView, v: ServedVersion): RuleTarget {
  return { operation: view.attrs.operation, group: v.group, version: v.version, resource: v.resource, subresource: view.attrs.subresource, namespace: view.namespace };
}

const labelsOf = (obj: KubeObject | undefined): Record<string, string> | undefined => obj?.metadata?.labels as Record<string, string> | undefined;

function selectorOf(s: LabelSelector | string): LabelSelector {
  if (typeof s === 'string') throw errors.internal(s);
  return s;
}

export class Matcher {
  constructor(private readonly namespaces: Lister<NamespaceInfo>) {}

  /** The invocation for `hook`, or undefined when it is not called; throws a StatusError when matching fails. */
  async shouldCall(hook: Webhook, view: RequestView): Promise<Invocation | undefined> {
    const ns = await this.settle(() => this.namespaceMatches(hook, view));
    if (ns === false) return undefined;
    const obj = await this.settle(async () => this.objectMatches(hook, view));
    if (obj === false) return undefined;
    const found = this.byRules(hook, view);
    if (!found) return undefined;
    // As Kubernetes: a selector that could not be evaluated fails the request only for a webhook whose rules match.
    if (ns instanceof StatusError) throw ns;
    if (obj instanceof StatusError) throw obj;
    return found;
  }

  private async settle(fn: () => Promise<boolean>): Promise<boolean | StatusError> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof StatusError) return e;
      throw e;
    }
  }

  private byRules(hook: Webhook, view: RequestView): Invocation | undefined {
    const rules = hook.spec.rules ?? [];
    const exact = target(view, view.request);
    if (rules.some((r) => ruleMatches(r, exact))) return { hook, target: view.request };
    if (hook.spec.matchPolicy !== 'Equivalent') return undefined;
    for (const rule of rules) {
      for (const v of view.versions) {
        if (v.group === view.request.group && v.version === view.request.version) continue;
        if (ruleMatches(rule, target(view, v))) return { hook, target: v };
      }
    }
    return undefined;
  }

  private async namespaceMatches(hook: Webhook, view: RequestView): Promise<boolean> {
    const { attrs } = view;
    if (!view.namespace && !isNamespaces(attrs)) return true;
    const selector = selectorOf(hook.namespaceSelector);
    if (selector.empty) return true;
    return selector.matches(await this.namespaceLabels(view));
  }

  private async namespaceLabels(view: RequestView): Promise<Record<string, string> | undefined> {
    const { attrs } = view;
    if (isNamespaces(attrs) && !attrs.subresource && (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')) return labelsOf(attrs.object);
    let ns = this.namespaces.get('', view.namespace);
    if (!ns) {
      // A namespace created an instant ago may not be in the cache yet.
      await this.namespaces.synced(attrs.signal);
      ns = this.namespaces.get('', view.namespace);
    }
    if (!ns) throw errors.notFound({ group: '', resource: 'namespaces' }, view.namespace);
    return ns.metadata.labels;
  }

  private objectMatches(hook: Webhook, view: RequestView): boolean {
    const selector = selectorOf(hook.objectSelector);
    if (selector.empty) return true;
    const { object, oldObject } = view.attrs;
    return (!!object && selector.matches(labelsOf(object))) || (!!oldObject && selector.matches(labelsOf(oldObject)));
  }
}
