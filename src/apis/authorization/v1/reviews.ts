/**
 * SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview and
 * SelfSubjectRulesReview (authorization/v1): create-only kinds, never stored, answered by the
 * server's authorizer (the `answer` the server registers under each kind's name). Validation is
 * Kubernetes', with its messages.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import { defineResource } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';
import { SelfSubjectAccessReviewSpec, SelfSubjectRulesReviewSpec, SubjectAccessReviewSpec, SubjectAccessReviewStatus, SubjectRulesReviewStatus } from './types.js';

export const SubjectAccessReviewSchema = t.struct('authorization.v1.SubjectAccessReview', {
  ...objectHeader,
  spec: t.required(2, SubjectAccessReviewSpec, { description: 'Who and what is asked about.' }),
  status: t.field(3, SubjectAccessReviewStatus, { description: 'The answer, filled in by the server.' }),
}, { description: 'Asks whether a user or group may do an action. Not stored: the create answers.' });
export type SubjectAccessReview = ObjectOf<typeof SubjectAccessReviewSchema>;

export const LocalSubjectAccessReviewSchema = t.struct('authorization.v1.LocalSubjectAccessReview', {
  ...objectHeader,
  spec: t.required(2, SubjectAccessReviewSpec, { description: 'Who and what is asked about; the namespace must be the review\'s own.' }),
  status: t.field(3, SubjectAccessReviewStatus, { description: 'The answer, filled in by the server.' }),
}, { description: 'A SubjectAccessReview within one namespace, for namespace administrators. Not stored.' });
export type LocalSubjectAccessReview = ObjectOf<typeof LocalSubjectAccessReviewSchema>;

export const SelfSubjectAccessReviewSchema = t.struct('authorization.v1.SelfSubjectAccessReview', {
  ...objectHeader,
  spec: t.required(2, SelfSubjectAccessReviewSpec, { description: 'The action asked about.' }),
  status: t.field(3, SubjectAccessReviewStatus, { description: 'The answer, filled in by the server.' }),
}, { description: 'Asks whether the caller may do an action (kubectl auth can-i). Not stored.' });
export type SelfSubjectAccessReview = ObjectOf<typeof SelfSubjectAccessReviewSchema>;

export const SelfSubjectRulesReviewSchema = t.struct('authorization.v1.SelfSubjectRulesReview', {
  ...objectHeader,
  spec: t.required(2, SelfSubjectRulesReviewSpec, { description: 'The namespace to list the rules in.' }),
  status: t.field(3, SubjectRulesReviewStatus, { description: 'The rules, filled in by the server.' }),
}, { description: 'Lists what the caller may do in a namespace (kubectl auth can-i --list). Not stored.' });
export type SelfSubjectRulesReview = ObjectOf<typeof SelfSubjectRulesReviewSchema>;

interface AccessSpec {
  resourceAttributes?: unknown;
  nonResourceAttributes?: unknown;
  user?: string;
  groups?: string[];
}

/** ObjectMeta with nothing set (the server's own creationTimestamp aside). */
function metadataIsEmpty(meta: Record<string, unknown>, except: readonly string[] = []): boolean {
  return Object.entries(meta).every(([k, v]) => except.includes(k) || v === undefined || v === null || v === '' || (typeof v === 'object' && Object.keys(v as object).length === 0));
}

function validateAttributesChoice(spec: AccessSpec, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errs.push(fieldErr.invalid(path.child('nonResourceAttributes'), spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'));
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errs.push(fieldErr.invalid(path.child('resourceAttributes'), 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  return errs;
}

function validateSubjectSpec(spec: AccessSpec): FieldError[] {
  const path = FieldPath.root('spec');
  const errs = validateAttributesChoice(spec, path);
  if (!spec.user && !(spec.groups ?? []).length) errs.push(fieldErr.invalid(path.child('user'), spec.user ?? '', 'at least one of user or group must be specified'));
  return errs;
}

const emptyMetadata = (meta: Record<string, unknown>, except: readonly string[] = [], message = 'must be empty'): FieldError[] =>
  metadataIsEmpty(meta, except) ? [] : [fieldErr.invalid('metadata', JSON.stringify(meta), message)];

const createOnly = { verbs: ['create'] as const, strategy: { nameValidator: nameValidators.pathSegment } };

export const subjectAccessReviewResource = defineResource<SubjectAccessReview>((names) => ({
  group: names.group('authorization'),
  version: 'v1',
  kind: 'SubjectAccessReview',
  resource: 'subjectaccessreviews',
  singular: 'subjectaccessreview',
  namespaced: false,
  schema: SubjectAccessReviewSchema,
  ...createOnly,
  notStored: true,
  fixture: () => ({ spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } }),
  strategy: {
    ...createOnly.strategy,
    validate: (sar) => [...validateSubjectSpec(sar.spec), ...emptyMetadata(sar.metadata as Record<string, unknown>, ['creationTimestamp'])],
  },
}));

export const localSubjectAccessReviewResource = defineResource<LocalSubjectAccessReview>((names) => ({
  group: names.group('authorization'),
  version: 'v1',
  kind: 'LocalSubjectAccessReview',
  resource: 'localsubjectaccessreviews',
  singular: 'localsubjectaccessreview',
  namespaced: true,
  schema: LocalSubjectAccessReviewSchema,
  ...createOnly,
  notStored: true,
  fixture: () => ({ spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods' } } }),
  strategy: {
    ...createOnly.strategy,
    validate: (lsar) => {
      const errs = [...validateSubjectSpec(lsar.spec), ...emptyMetadata(lsar.metadata as Record<string, unknown>, ['namespace', 'managedFields', 'creationTimestamp'], 'must be empty except for namespace')];
      const ra = lsar.spec.resourceAttributes;
      if (ra && (ra.namespace ?? '') !== (lsar.metadata.namespace ?? '')) {
        errs.push(fieldErr.invalid('spec.resourceAttributes.namespace', ra.namespace ?? '', 'must match metadata.namespace'));
      }
      if (lsar.spec.nonResourceAttributes) errs.push(fieldErr.invalid('spec.nonResourceAttributes', JSON.stringify(lsar.spec.nonResourceAttributes), 'disallowed on this kind of request'));
      return errs;
    },
  },
}));

export const selfSubjectAccessReviewResource = defineResource<SelfSubjectAccessReview>((names) => ({
  group: names.group('authorization'),
  version: 'v1',
  kind: 'SelfSubjectAccessReview',
  resource: 'selfsubjectaccessreviews',
  singular: 'selfsubjectaccessreview',
  namespaced: false,
  schema: SelfSubjectAccessReviewSchema,
  ...createOnly,
  notStored: true,
  fixture: () => ({ spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } }),
  strategy: {
    ...createOnly.strategy,
    validate: (ssar) => [...validateAttributesChoice(ssar.spec, FieldPath.root('spec')), ...emptyMetadata(ssar.metadata as Record<string, unknown>, ['creationTimestamp'])],
  },
}));

export const selfSubjectRulesReviewResource = defineResource<SelfSubjectRulesReview>((names) => ({
  group: names.group('authorization'),
  version: 'v1',
  kind: 'SelfSubjectRulesReview',
  resource: 'selfsubjectrulesreviews',
  singular: 'selfsubjectrulesreview',
  namespaced: false,
  schema: SelfSubjectRulesReviewSchema,
  ...createOnly,
  notStored: true,
  fixture: () => ({ spec: { namespace: 'default' } }),
  strategy: { ...createOnly.strategy },
}));
