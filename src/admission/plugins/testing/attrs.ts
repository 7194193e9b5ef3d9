/** Admission attributes for plugin unit tests. */
import type { AdmissionAttributes } from '../../types.js';
import type { KubeObject } from '../../../schema/index.js';

export function attrs(over: Partial<AdmissionAttributes> & { resource: string }): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    subresource: '',
    kind: '',
    namespace: 'ns',
    name: (over.object?.metadata.name as string | undefined) ?? '',
    dryRun: false,
    signal: new AbortController().signal,
    ...over,
  };
}

export function obj(name: string, fields: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject {
  return { metadata: { name, ...meta }, ...fields };
}
