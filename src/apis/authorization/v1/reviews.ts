/**
 * SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview and
 * SelfSubjectRulesReview (authorization/v1): create-only review kinds, never stored, answered by
 * the server's authorizer (`env.accessReviewer`). Validation is Kubernetes', with its messages,
 * and comes before any answer.
 */
import { errors } from '../../../machinery/errors.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { nameValidators } from '../../../machinery/name-validation.js';
import type { UserInfo } from '../../../machinery/user-info.js';
import { defineResource, type AccessReviewer, type ReviewContext } from '../../../registry/define-resource.js';
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

/** Refuses an invalid review with 422 before it is answered. */
function checked<T extends { metadata: object }>(kind: string, group: string, review: T, problems: FieldError[]): T {
  if (problems.length) throw errors.invalid({ group, kind }, '', problems);
  return review;
}

function reviewerOf(env: { accessReviewer?: AccessReviewer }): AccessReviewer {
  // Only definitions that are listed, never served, lack it.
  if (!env.accessReviewer) throw errors.serviceUnavailable('access reviews are not answered by this server');
  return env.accessReviewer;
}

function callerOf(ctx: ReviewContext): UserInfo {
  if (!ctx.user) throw errors.badRequest('no user present on request');
  return ctx.user;
}

function userOfSpec(spec: SubjectAccessReview['spec']): UserInfo {
  return { username: spec.user ?? '', groups: [...(spec.groups ?? [])], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: structuredClone(spec.extra) } : {}) };
}

const validateSar = (sar: SubjectAccessReview): FieldError[] => [...validateSubjectSpec(sar.spec), ...emptyMetadata(sar.metadata as Record<string, unknown>, ['creationTimestamp'])];

export const subjectAccessReviewResource = defineResource<SubjectAccessReview>((names, env) => ({
  group: names.group('authorization'),
  version: 'v1',
  kind: 'SubjectAccessReview',
  resource: 'subjectaccessreviews',
  singular: 'subjectaccessreview',
  namespaced: false,
  schema: SubjectAccessReviewSchema,
  ...createOnly,
  fixture: () => ({ spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } }),
  strategy: { ...createOnly.strategy, validate: validateSar },
  async review(sar, ctx) {
    checked('SubjectAccessReview', names.group('authorization'), sar, validateSar(sar));
    sar.status = await reviewerOf(env).review(userOfSpec(sar.spec), sar.spec, ctx.signal);
    return sar;
  },
}));

function validateLsar(lsar: LocalSubjectAccessReview): FieldError[] {
  const errs = [...validateSubjectSpec(lsar.spec), ...emptyMetadata(lsar.metadata as Record<string, unknown>, ['namespace', 'managedFields', 'creationTimestamp'], 'must be empty except for namespace')];
  const ra = lsar.spec.resourceAttributes;
  if (ra && (ra.namespace ?? '') !== (lsar.metadata.namespace ?? '')) {
    errs.push(fieldErr.invalid('spec.resourceAttributes.namespace', ra.namespace ?? '', 'must match metadata.namespace'));
  }
  if (lsar.spec.nonResourceAttributes) errs.push(fieldErr.invalid('spec.nonResourceAttributes', JSON.stringify(lsar.spec.nonResourceAttributes), 'disallowed on this kind of request'));
  return errs;
}

export const localSubjectAccessReviewResource = defineResource<LocalSubjectAccessReview>((names, env) => ({
  group: names.group('authorization'),
  version: 'v1',
  kind: 'LocalSubjectAccessReview',
  resource: 'localsubjectaccessreviews',
  singular: 'localsubjectaccessreview',
  namespaced: true,
  schema: LocalSubjectAccessReviewSchema,
  ...createOnly,
  fixture: () => ({ spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods' } } }),
  strategy: { ...createOnly.strategy, validate: validateLsar },
  async review(lsar, ctx) {
    const ns = lsar.metadata.namespace;
    if (ns && ns !== ctx.namespace) throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    lsar.metadata.namespace = ctx.namespace;
    checked('LocalSubjectAccessReview', names.group('authorization'), lsar, validateLsar(lsar));
    if (!ctx.namespace) throw errors.badRequest('namespace is required on this type: ');
    lsar.status = await reviewerOf(env).review(userOfSpec(lsar.spec), lsar.spec, ctx.signal);
    return lsar;
  },
}));

const validateSsar = (ssar: SelfSubjectAccessReview): FieldError[] => [
  ...validateAttributesChoice(ssar.spec, FieldPath.root('spec')),
  ...emptyMetadata(ssar.metadata as Record<string, unknown>, ['creationTimestamp']),
];

export const selfSubjectAccessReviewResource = defineResource<SelfSubjectAccessReview>((names, env) => ({
  group: names.group('authorization'),
  version: 'v1',
  kind: 'SelfSubjectAccessReview',
  resource: 'selfsubjectaccessreviews',
  singular: 'selfsubjectaccessreview',
  namespaced: false,
  schema: SelfSubjectAccessReviewSchema,
  ...createOnly,
  fixture: () => ({ spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' } } }),
  strategy: { ...createOnly.strategy, validate: validateSsar },
  async review(ssar, ctx) {
    checked('SelfSubjectAccessReview', names.group('authorization'), ssar, validateSsar(ssar));
    ssar.status = await reviewerOf(env).review(callerOf(ctx), ssar.spec, ctx.signal);
    return ssar;
  },
}));

export const selfSubjectRulesReviewResource = defineResource<SelfSubjectRulesReview>((names, env) => ({
  group: names.group('authorization'),
  version: 'v1',
  kind: 'SelfSubjectRulesReview',
  resource: 'selfsubjectrulesreviews',
  singular: 'selfsubjectrulesreview',
  namespaced: false,
  schema: SelfSubjectRulesReviewSchema,
  ...createOnly,
  fixture: () => ({ spec: { namespace: 'default' } }),
  strategy: { ...createOnly.strategy },
  async review(review, ctx) {
    const user = callerOf(ctx);
    const namespace = review.spec.namespace ?? '';
    if (!namespace) throw errors.badRequest('no namespace on request');
    // Kubernetes answers a fresh object: the spec asked is not echoed.
    return {
      apiVersion: review.apiVersion,
      kind: review.kind,
      metadata: { creationTimestamp: null },
      spec: {},
      status: reviewerOf(env).rules(user, namespace),
    } as unknown as SelfSubjectRulesReview;
  },
}));
