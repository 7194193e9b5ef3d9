/**
 * Kubernetes' validation of webhook configurations (admissionregistration/v1, 1.25): webhook names,
 * rules, policies, selectors, client configs and AdmissionReview versions. An update is held to the
 * strict rules only where the stored configuration already meets them, so a configuration stored by
 * an older server can still be edited.
 */
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { hasInvalidLabelValueInSelector, validateLabelSelector } from '../../../machinery/label-selector-validation.js';
import { isDns1035Label, isDns1123Subdomain } from '../../../machinery/name-validation.js';
import { FAILURE_POLICIES, MATCH_POLICIES, OPERATIONS, REINVOCATION_POLICIES, SCOPES, SIDE_EFFECT_CLASSES, type MutatingWebhook, type RuleWithOperations, type ValidatingWebhook } from './types.js';
import { validateWebhookService, validateWebhookUrl } from './webhook-url.js';

/** The AdmissionReview versions this server can send. */
export const ACCEPTED_ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'] as const;

/** Go lists the allowed values of a set in sorted order. */
const sorted = (values: readonly string[]): string[] => [...values].sort();

export interface WebhookValidationOptions {
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
}

export const CREATE_OPTIONS: WebhookValidationOptions = {
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
};

type AnyWebhook = ValidatingWebhook | MutatingWebhook;

/** The options for an update: each strict rule applies only if every stored webhook meets it. */
export function updateOptions(old: readonly AnyWebhook[]): WebhookValidationOptions {
  const names = old.map((h) => h.name);
  return {
    requireNoSideEffects: old.every((h) => h.sideEffects !== undefined && (NO_SIDE_EFFECTS as readonly string[]).includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: old.every(
      (h) => (h.admissionReviewVersions ?? []).length === 0 || (h.admissionReviewVersions ?? []).some((v) => isAcceptedVersion(v)),
    ),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: old.some((h) => hasInvalidLabelValueInSelector(h.namespaceSelector) || hasInvalidLabelValueInSelector(h.objectSelector)),
  };
}

function isAcceptedVersion(v: string): boolean {
  return (ACCEPTED_ADMISSION_REVIEW_VERSIONS as readonly string[]).includes(v);
}

/** Kubernetes' IsFullyQualifiedName: a DNS subdomain of at least three labels. */
function validateWebhookName(path: FieldPath, name: string): FieldError[] {
  if (!name) return [fieldErr.required(path)];
  const problems = isDns1123Subdomain(name);
  if (problems.length) return [fieldErr.invalid(path, name, problems.join(','))];
  if (name.split('.').length < 3) return [fieldErr.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateResources(resources: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldErr.required(path));
  const wildcardSubresourcesOf = new Set<string>(); // x/*
  const wildcardResourcesFor = new Set<string>(); // */x
  let doubleWildcard = false;
  let singleWildcard = false;
  let plainResource = false;
  resources.forEach((entry, i) => {
    if (!entry) {
      errs.push(fieldErr.required(path.index(i)));
      return;
    }
    if (entry === '*/*') doubleWildcard = true;
    if (entry === '*') singleWildcard = true;
    const slash = entry.indexOf('/');
    if (slash < 0) {
      // As in Kubernetes, only the last plain entry decides whether '*' overlaps another one.
      plainResource = entry !== '*';
      return;
    }
    const res = entry.slice(0, slash);
    const sub = entry.slice(slash + 1);
    if (wildcardSubresourcesOf.has(res)) errs.push(fieldErr.invalid(path.index(i), entry, `if '${res}/*' is present, must not specify ${entry}`));
    if (wildcardResourcesFor.has(sub)) errs.push(fieldErr.invalid(path.index(i), entry, `if '*/${sub}' is present, must not specify ${entry}`));
    if (sub === '*') wildcardSubresourcesOf.add(res);
    if (res === '*') wildcardResourcesFor.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(fieldErr.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && plainResource) errs.push(fieldErr.invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

function validateRule(rule: RuleWithOperations, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const operations = rule.operations ?? [];
  if (operations.length === 0) errs.push(fieldErr.required(path.child('operations')));
  if (operations.length > 1 && operations.includes('*')) errs.push(fieldErr.invalid(path.child('operations'), operations, "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!(OPERATIONS as readonly string[]).includes(op)) errs.push(fieldErr.notSupported(path.child('operations').index(i), op, sorted(OPERATIONS)));
  });
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errs.push(fieldErr.required(path.child('apiGroups')));
  if (groups.length > 1 && groups.includes('*')) errs.push(fieldErr.invalid(path.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  const versions = rule.apiVersions ?? [];
  if (versions.length === 0) errs.push(fieldErr.required(path.child('apiVersions')));
  if (versions.length > 1 && versions.includes('*')) errs.push(fieldErr.invalid(path.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (!v) errs.push(fieldErr.required(path.child('apiVersions').index(i)));
  });
  errs.push(...validateResources(rule.resources ?? [], path.child('resources')));
  if (rule.scope !== undefined && !(SCOPES as readonly string[]).includes(rule.scope)) errs.push(fieldErr.notSupported(path.child('scope'), rule.scope, sorted(SCOPES)));
  return errs;
}

function validateAdmissionReviewVersions(versions: readonly string[], requireRecognized: boolean, path: FieldPath): FieldError[] {
  if (versions.length === 0) return [fieldErr.required(path, `must specify one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErr.invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDns1035Label(v)) errs.push(fieldErr.invalid(path.index(i), v, m));
    if (isAcceptedVersion(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(fieldErr.invalid(path, versions, `must include at least one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function validateWebhook(hook: AnyWebhook, mutating: boolean, opts: WebhookValidationOptions, path: FieldPath): FieldError[] {
  const errs = validateWebhookName(path.child('name'), hook.name);
  (hook.rules ?? []).forEach((rule, i) => errs.push(...validateRule(rule, path.child('rules').index(i))));
  if (hook.failurePolicy !== undefined && !(FAILURE_POLICIES as readonly string[]).includes(hook.failurePolicy)) {
    errs.push(fieldErr.notSupported(path.child('failurePolicy'), hook.failurePolicy, sorted(FAILURE_POLICIES)));
  }
  if (hook.matchPolicy !== undefined && !(MATCH_POLICIES as readonly string[]).includes(hook.matchPolicy)) {
    errs.push(fieldErr.notSupported(path.child('matchPolicy'), hook.matchPolicy, sorted(MATCH_POLICIES)));
  }
  const allowedSideEffects = sorted(opts.requireNoSideEffects ? NO_SIDE_EFFECTS : SIDE_EFFECT_CLASSES);
  if (hook.sideEffects === undefined) errs.push(fieldErr.required(path.child('sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(hook.sideEffects)) errs.push(fieldErr.notSupported(path.child('sideEffects'), hook.sideEffects, allowedSideEffects));
  if (hook.timeoutSeconds !== undefined && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1)) {
    errs.push(fieldErr.invalid(path.child('timeoutSeconds'), hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  const selectorOpts = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  errs.push(...validateLabelSelector(hook.namespaceSelector, path.child('namespaceSelector'), selectorOpts));
  errs.push(...validateLabelSelector(hook.objectSelector, path.child('objectSelector'), selectorOpts));
  if (mutating) {
    const policy = (hook as MutatingWebhook).reinvocationPolicy;
    if (policy !== undefined && !(REINVOCATION_POLICIES as readonly string[]).includes(policy)) {
      errs.push(fieldErr.notSupported(path.child('reinvocationPolicy'), policy, sorted(REINVOCATION_POLICIES)));
    }
  }
  const cc = hook.clientConfig;
  const clientPath = path.child('clientConfig');
  if ((cc.url === undefined) === (cc.service === undefined)) errs.push(fieldErr.required(clientPath, 'exactly one of url or service is required'));
  else if (cc.url !== undefined) errs.push(...validateWebhookUrl(clientPath.child('url'), cc.url));
  else if (cc.service) errs.push(...validateWebhookService(clientPath.child('service'), cc.service));
  return errs;
}

/** Every webhook of a configuration, the AdmissionReview versions of each, and unique names. */
export function validateWebhooks(hooks: readonly AnyWebhook[] | undefined, mutating: boolean, opts: WebhookValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (hooks ?? []).forEach((hook, i) => {
    const path = FieldPath.root('webhooks').index(i);
    errs.push(...validateWebhook(hook, mutating, opts, path));
    errs.push(...validateAdmissionReviewVersions(hook.admissionReviewVersions ?? [], opts.requireRecognizedAdmissionReviewVersion, path.child('admissionReviewVersions')));
    if (opts.requireUniqueWebhookNames && hook.name) {
      if (seen.has(hook.name)) errs.push(fieldErr.duplicate(path.child('name'), hook.name));
      else seen.add(hook.name);
    }
  });
  return errs;
}

/** Kubernetes' v1 defaults for a webhook. Mutates. */
export function defaultWebhook(hook: AnyWebhook, mutating: boolean): void {
  hook.failurePolicy ??= 'Fail';
  hook.matchPolicy ??= 'Equivalent';
  hook.namespaceSelector ??= {};
  hook.objectSelector ??= {};
  hook.timeoutSeconds ??= 10;
  if (mutating) (hook as MutatingWebhook).reinvocationPolicy ??= 'Never';
  for (const rule of hook.rules ?? []) rule.scope ??= '*';
  if (hook.clientConfig.service) hook.clientConfig.service.port ??= 443;
}
