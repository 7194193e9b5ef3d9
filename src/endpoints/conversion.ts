/**
 * Between the served version of an endpoint and the stored (hub) version. Endpoints of the storage
 * version pass objects through untouched; others convert on the way in and out.
 */
import type { KubeObject } from '../schema/index.js';
import { EncodedObject } from '../machinery/encoded-object.js';
import type { ResourceEndpoint } from './resource-endpoint.js';

/** The stored object as the endpoint serves it. Pure. */
export function toServed(ep: ResourceEndpoint, hub: KubeObject): KubeObject {
  return ep.def.conversion ? ep.def.conversion.fromHub(hub) : hub;
}

/** Stored JSON text as the endpoint serves it; the same holder when no conversion is needed. */
export function toServedText(ep: ResourceEndpoint, hub: EncodedObject): EncodedObject {
  return ep.def.conversion ? EncodedObject.of(ep.def.conversion.fromHub(hub.parse<KubeObject>())) : hub;
}

/** A decoded object of the served version as the store keeps it. Pure. */
export function toHub(ep: ResourceEndpoint, served: KubeObject): KubeObject {
  return ep.def.conversion ? ep.def.conversion.toHub(served) : served;
}
