/**
 * Lease (coordination.<domain>/v1): a lock with a holder and a term, renewed by its holder. Leader
 * election and node heartbeats use it. Kubernetes gives it no defaults, no status and no
 * generation; only the duration and the transition count are checked.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { age, ageColumn, column, defineResource, defineTable, nameColumn } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { IS_NEGATIVE } from '../../core/v1/types/index.js';

export const LeaseSpec = t.struct('coordination.v1.LeaseSpec', {
  holderIdentity: t.field(1, t.string(), { pointer: true, description: 'Who holds the lease now.' }),
  leaseDurationSeconds: t.field(2, t.int32(), {
    pointer: true,
    description: 'How long others must wait, counted from the last renewal, before they may take the lease over.',
  }),
  acquireTime: t.field(3, t.microTime(), { pointer: true, description: 'When the current holder acquired the lease.' }),
  renewTime: t.field(4, t.microTime(), { pointer: true, description: 'When the current holder last renewed the lease.' }),
  leaseTransitions: t.field(5, t.int32(), { pointer: true, description: 'How many times the lease has changed holders.' }),
}, { description: 'The holder and term of a lease.' });

export const LeaseSchema = t.struct('coordination.v1.Lease', {
  ...objectHeader,
  spec: t.field(2, LeaseSpec, { description: 'The holder and term of the lease.' }),
}, { description: 'A lease: a lock held by one party at a time and renewed by it, as leader election and node heartbeats use.' });
export type Lease = ObjectOf<typeof LeaseSchema>;

function validateLease(lease: Lease): FieldError[] {
  const path = FieldPath.root('spec');
  const errs: FieldError[] = [];
  const { leaseDurationSeconds, leaseTransitions } = lease.spec;
  if (leaseDurationSeconds !== undefined && leaseDurationSeconds <= 0) {
    errs.push(fieldErr.invalid(path.child('leaseDurationSeconds'), leaseDurationSeconds, 'must be greater than 0'));
  }
  if (leaseTransitions !== undefined && leaseTransitions < 0) errs.push(fieldErr.invalid(path.child('leaseTransitions'), leaseTransitions, IS_NEGATIVE));
  return errs;
}

/** `kubectl get leases`: the holder (empty when nobody holds it). */
export const leaseTable = defineTable<Lease>({
  columns: [nameColumn, column('Holder', 'The identity of the holder of the lease.'), ageColumn],
  cells: (lease, ctx) => [lease.metadata.name ?? '', lease.spec?.holderIdentity ?? '', age(lease, ctx)],
});

export const leaseResource = defineResource<Lease>((names) => ({
  group: names.group('coordination'),
  version: 'v1',
  kind: 'Lease',
  resource: 'leases',
  singular: 'lease',
  namespaced: true,
  schema: LeaseSchema,
  table: leaseTable,
  fixture: () => ({ spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, leaseTransitions: 0 } }),
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    validate: validateLease,
  },
}));
