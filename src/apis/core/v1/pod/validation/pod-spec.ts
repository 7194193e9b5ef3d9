/**
 * PodSpec and PodTemplateSpec validation, shared by Pod and the workload kinds: the checks of each
 * part in Kubernetes' order, with its messages and field paths.
 */
import { fieldErr, type FieldError, type FieldPath } from '../../../../../machinery/field-errors.js';
import type { ApiNames } from '../../../../../machinery/api-names.js';
import { parseIP } from '../../../../../machinery/ip.js';
import { validateAnnotations, validateLabels } from '../../../../../machinery/meta-validation.js';
import type { ObjectMeta } from '../../../../../schema/index.js';
import type { PodDNSConfig, PodSpec, PodTemplateSpec } from '../pod-spec.js';
import { inclusiveRange, validateDns1123Label, validateDns1123Subdomain, validateQualifiedName } from '../../types/index.js';
import { INT32_MAX } from './common.js';
import { validateContainers, validateEphemeralContainers } from './containers.js';
import { validateOverhead } from './resources.js';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './scheduling.js';
import { validatePodSecurityContext } from './security.js';
import { validateVolumes } from './volumes.js';

export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PREEMPTION_POLICIES = ['Never', 'PreemptLowerPriority'];
const OS_NAMES = ['linux', 'windows'];
const MAX_NAMESERVERS = 3;
const MAX_SEARCH_PATHS = 32;
const MAX_SEARCH_CHARS = 2048;

function validateDNSConfig(cfg: PodDNSConfig | undefined, policy: string, path: FieldPath): FieldError[] {
  if (policy === 'None') {
    if (!cfg) return [fieldErr.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if ((cfg.nameservers ?? []).length === 0) return [fieldErr.required(path.child('nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!cfg) return [];
  const errs: FieldError[] = [];
  const nameservers = cfg.nameservers ?? [];
  if (nameservers.length > MAX_NAMESERVERS) errs.push(fieldErr.invalid(path.child('nameservers'), nameservers, `must not have more than ${MAX_NAMESERVERS} nameservers`));
  nameservers.forEach((ns, i) => {
    if (!parseIP(ns)) errs.push(fieldErr.invalid(path.child('nameservers').index(i), ns, 'must be valid IP address'));
  });
  const searches = cfg.searches ?? [];
  if (searches.length > MAX_SEARCH_PATHS) errs.push(fieldErr.invalid(path.child('searches'), searches, `must not have more than ${MAX_SEARCH_PATHS} search paths`));
  if (searches.join(' ').length > MAX_SEARCH_CHARS) {
    errs.push(fieldErr.invalid(path.child('searches'), searches, `must not have more than ${MAX_SEARCH_CHARS} characters (including spaces) in the search list`));
  }
  // A trailing dot (a fully qualified name) is fine.
  searches.forEach((s, i) => errs.push(...validateDns1123Subdomain(s.endsWith('.') ? s.slice(0, -1) : s, path.child('searches').index(i))));
  (cfg.options ?? []).forEach((o, i) => {
    if (!o.name) errs.push(fieldErr.required(path.child('options').index(i), 'must not be empty'));
  });
  return errs;
}

function validateChoice(value: string, supported: readonly string[], path: FieldPath): FieldError[] {
  if (!value) return [fieldErr.required(path)];
  return supported.includes(value) ? [] : [fieldErr.notSupported(path, value, supported)];
}

/** The whole spec; `podMeta` is the pod's metadata (undefined for templates, whose pods have no name yet). */
export function validatePodSpec(spec: PodSpec, podMeta: ObjectMeta | undefined, path: FieldPath, apiNames: ApiNames): FieldError[] {
  const volumes = validateVolumes(spec.volumes, podMeta, path.child('volumes'), apiNames);
  const errs = [
    ...volumes.errs,
    ...validateContainers(spec.containers ?? [], spec.initContainers, volumes.byName, path, apiNames),
    ...validateEphemeralContainers(spec.ephemeralContainers, spec.containers ?? [], spec.initContainers, volumes.byName, path, apiNames),
  ];
  errs.push(
    ...validateChoice(spec.restartPolicy ?? '', RESTART_POLICIES, path.child('restartPolicy')),
    ...validateChoice(spec.dnsPolicy ?? '', DNS_POLICIES, path.child('dnsPolicy')),
    ...validateLabels(spec.nodeSelector, path.child('nodeSelector')),
    ...validatePodSecurityContext(spec.securityContext, spec, path),
    ...validateAffinity(spec.affinity, path.child('affinity')),
    ...validateDNSConfig(spec.dnsConfig, spec.dnsPolicy ?? '', path.child('dnsConfig')),
  );
  (spec.readinessGates ?? []).forEach((g, i) => errs.push(...validateQualifiedName(g.conditionType, path.child('readinessGates').index(i).child('conditionType'))));
  errs.push(...validateTopologySpreadConstraints(spec.topologySpreadConstraints, path.child('topologySpreadConstraints')));
  if (spec.serviceAccountName) errs.push(...validateDns1123Subdomain(spec.serviceAccountName, path.child('serviceAccountName')));
  if (spec.nodeName) errs.push(...validateDns1123Subdomain(spec.nodeName, path.child('nodeName')));
  const deadline = spec.activeDeadlineSeconds;
  if (deadline !== undefined && (deadline < 1 || deadline > INT32_MAX)) errs.push(fieldErr.invalid(path.child('activeDeadlineSeconds'), deadline, inclusiveRange(1, INT32_MAX)));
  if (spec.hostname) errs.push(...validateDns1123Label(spec.hostname, path.child('hostname')));
  if (spec.subdomain) errs.push(...validateDns1123Label(spec.subdomain, path.child('subdomain')));
  errs.push(...validateTolerations(spec.tolerations, path.child('tolerations')));
  for (const alias of spec.hostAliases ?? []) {
    if (!parseIP(alias.ip ?? '')) errs.push(fieldErr.invalid(path.child('hostAliases').child('ip'), alias.ip ?? '', 'must be valid IP address'));
    for (const h of alias.hostnames ?? []) errs.push(...validateDns1123Subdomain(h, path.child('hostAliases').child('hostnames')));
  }
  if (spec.priorityClassName) errs.push(...validateDns1123Subdomain(spec.priorityClassName, path.child('priorityClassName')));
  if (spec.runtimeClassName !== undefined) errs.push(...validateDns1123Subdomain(spec.runtimeClassName, path.child('runtimeClassName')));
  if (spec.preemptionPolicy !== undefined && !PREEMPTION_POLICIES.includes(spec.preemptionPolicy)) {
    errs.push(fieldErr.notSupported(path.child('preemptionPolicy'), spec.preemptionPolicy, PREEMPTION_POLICIES));
  }
  errs.push(...validateOverhead(spec.overhead, path.child('overhead'), apiNames));
  if (spec.os) {
    if (!spec.os.name) errs.push(fieldErr.required(path.child('os').child('name'), 'cannot be empty'));
    else if (!OS_NAMES.includes(spec.os.name)) errs.push(fieldErr.notSupported(path.child('os'), spec.os.name, OS_NAMES));
  }
  return errs;
}

/** A pod template: its labels and annotations, its spec, and no ephemeral containers. */
export function validatePodTemplateSpec(tpl: PodTemplateSpec, path: FieldPath, apiNames: ApiNames): FieldError[] {
  // Kubernetes reports template labels at `<template>.labels`, not `<template>.metadata.labels`.
  const errs = [...validateLabels(tpl.metadata.labels, path.child('labels')), ...validateAnnotations(tpl.metadata.annotations, path.child('annotations'))];
  errs.push(...validatePodSpec(tpl.spec, undefined, path.child('spec'), apiNames));
  if ((tpl.spec.ephemeralContainers ?? []).length > 0) {
    errs.push(fieldErr.forbidden(path.child('spec').child('ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}
