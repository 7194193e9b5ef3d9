/**
 * The served versions of a stored resource, for matchPolicy Equivalent: the same objects reached
 * through another group or version (events.<domain>/v1 and core/v1 Event; autoscaling v1 and v2),
 * with the conversions that show an object as each of them. Read from the registry at call time, so
 * kinds added while the server runs count.
 */
import type { ResourceDefinition } from '../../registry/define-resource.js';
import type { ResourceRegistry } from '../../registry/registry.js';
import type { KubeObject } from '../../schema/index.js';

/** One served group/version of a resource, and how to show a stored (hub) object in it. */
export interface ServedVersion {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  /** Absent when only the names are known (a resource the registry does not list). */
  readonly def?: ResourceDefinition;
}

export interface ServedVersions {
  /** Every served version of the resource stored as `group/resource`, in the registry's order. */
  of(hubGroup: string, hubResource: string): readonly ServedVersion[];
}

export function servedVersionsOf(registry: Pick<ResourceRegistry, 'all'>): ServedVersions {
  return {
    of(hubGroup, hubResource) {
      const out: ServedVersion[] = [];
      for (const { def } of registry.all()) {
        const stored = def.storedAs ?? { group: def.group, resource: def.resource };
        if (stored.group === hubGroup && stored.resource === hubResource) out.push({ group: def.group, version: def.version, resource: def.resource, kind: def.kind, def });
      }
      return out;
    },
  };
}

/** A stored object as `v` serves it. Pure: never changes `hub`. */
export function toVersion(v: ServedVersion, hub: KubeObject): KubeObject {
  const conversion = v.def?.conversion;
  return conversion ? conversion.fromHub(structuredClone(hub)) : structuredClone(hub);
}

/** An object of version `v` as it is stored. */
export function fromVersion(v: ServedVersion, obj: KubeObject): KubeObject {
  const conversion = v.def?.conversion;
  return conversion ? conversion.toHub(obj) : obj;
}
