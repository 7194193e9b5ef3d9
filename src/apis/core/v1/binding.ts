/**
 * The legacy `bindings` collection (POST /api/v1/namespaces/{ns}/bindings): a Binding whose
 * metadata.name is the pod assigns that pod to a node, exactly as `pods/{name}/binding` does
 * (pod/binding.ts), answering 201 with a Success Status. Create only; nothing of its own is stored.
 */
import { errors } from '../../../machinery/errors.js';
import { fieldErr } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import type { KubeObject } from '../../../schema/index.js';
import { bindingSubresource, BindingSchema, validateBinding, type Binding } from './pod/binding.js';
import type { Pod } from './pod.js';

export const legacyBindingResource = defineResource<Binding>((_names, env) => {
  const assign = bindingSubresource<Pod>();
  return {
    group: '',
    version: 'v1',
    kind: 'Binding',
    resource: 'bindings',
    singular: 'binding',
    namespaced: true,
    verbs: ['create'],
    schema: BindingSchema,
    fixture: () => ({ target: { kind: 'Node', name: 'node-1' } }),
    strategy: { nameValidator: nameValidators.pathSegment },
    async review(binding, ctx) {
      const name = binding.metadata.name ?? '';
      const errs = [...(name ? [] : [fieldErr.required('metadata.name', 'name or generateName is required')]), ...validateBinding(binding)];
      if (errs.length) throw errors.invalid({ group: '', kind: 'Binding' }, name, errs);
      const pods = env.stores?.('', 'pods');
      if (!pods) throw errors.internal('the pod store is not available');
      const scope = { namespace: ctx.namespace, signal: ctx.signal, warnings: [] as string[], ...(ctx.user ? { user: ctx.user } : {}) };
      const sctx = { names: ctx.names, namespace: ctx.namespace, subresource: 'binding', now: ctx.now };
      const uid = binding.metadata.uid;
      await pods.update(
        scope,
        name,
        (current) => {
          if (!current) throw errors.notFound({ group: '', resource: 'pods' }, name);
          const next = assign.apply(binding, current as Pod, sctx);
          // The Binding's resourceVersion, when given, is the pod's precondition.
          next.metadata = { ...next.metadata, resourceVersion: binding.metadata.resourceVersion || current.metadata.resourceVersion };
          return next;
        },
        { subresource: 'binding', allowCreate: false, dryRun: ctx.dryRun ?? false, ...(uid ? { preconditions: { uid } } : {}) },
      );
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as KubeObject as Binding;
    },
  };
});
