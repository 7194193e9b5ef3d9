/**
 * Reads `--audit-policy-file`: an `audit.<domain>/v1` `Policy` in YAML or JSON. Checks what
 * Kubernetes' policy validation checks (levels, stages, non-resource URL patterns, group names,
 * resourceNames without resources, rules that mix resources and non-resource URLs, at least one
 * rule) and throws one Error naming the file and every problem, so the server refuses to start
 * rather than audit less than the operator asked. Unknown fields are ignored, as Kubernetes'
 * decoder ignores them. Pure apart from reading the file.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { AUDIT_LEVELS, AUDIT_STAGES, type AuditLevel, type AuditPolicy, type AuditStage, type GroupResources, type PolicyRule } from './types.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function loadPolicyFile(path: string, auditGroup: string): AuditPolicy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`loading audit policy file: failed to read file path ${JSON.stringify(path)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return parsePolicy(text, auditGroup);
  } catch (e) {
    throw new Error(`loading audit policy file: ${(e as Error).message}: from file ${path}`);
  }
}

/** Parses and validates a policy document; throws an Error listing every problem. */
export function parsePolicy(text: string, auditGroup: string): AuditPolicy {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new Error(`failed decoding: ${(e as Error).message}`);
  }
  if (!isDict(doc)) throw new Error('failed decoding: the policy is not a mapping with apiVersion, kind and rules');
  const expected = `${auditGroup}/v1`;
  if (doc.apiVersion !== expected || doc.kind !== 'Policy') {
    throw new Error(`unknown group version field ${JSON.stringify(`${String(doc.apiVersion ?? '')}, Kind=${String(doc.kind ?? '')}`)} in policy: expected apiVersion ${expected} and kind Policy`);
  }
  const problems: string[] = [];
  const policyOmit = stages(doc.omitStages, 'omitStages', problems);
  const policyOmitManaged = bool(doc.omitManagedFields, 'omitManagedFields', problems) ?? false;
  const rawRules = doc.rules ?? [];
  if (!Array.isArray(rawRules)) problems.push('rules: Invalid value: must be a list of rules');
  const rules: PolicyRule[] = [];
  (Array.isArray(rawRules) ? rawRules : []).forEach((raw: unknown, i) => {
    const path = `rules[${i}]`;
    if (!isDict(raw)) {
      problems.push(`${path}: Invalid value: must be a mapping`);
      return;
    }
    const rule = parseRule(raw, path, problems);
    if (rule) rules.push({ ...rule, omitStages: [...new Set([...policyOmit, ...rule.omitStages])] });
  });
  if (problems.length) throw new Error(problems.length === 1 ? (problems[0] as string) : `[${problems.join(', ')}]`);
  if (rules.length === 0) throw new Error('loaded illegal policy with 0 rules');
  return { rules, omitStages: policyOmit, omitManagedFields: policyOmitManaged };
}

function parseRule(raw: Dict, path: string, problems: string[]): PolicyRule | undefined {
  const level = raw.level;
  let ruleLevel: AuditLevel | undefined;
  if (level === undefined || level === '') problems.push(`${path}.level: Required value`);
  else if (typeof level === 'string' && (AUDIT_LEVELS as readonly string[]).includes(level)) ruleLevel = level as AuditLevel;
  else problems.push(`${path}.level: Unsupported value: ${JSON.stringify(level)}: supported values: ${AUDIT_LEVELS.map((l) => JSON.stringify(l)).join(', ')}`);
  const users = strings(raw.users, `${path}.users`, problems);
  const userGroups = strings(raw.userGroups, `${path}.userGroups`, problems);
  const verbs = strings(raw.verbs, `${path}.verbs`, problems);
  const namespaces = strings(raw.namespaces, `${path}.namespaces`, problems);
  const nonResourceURLs = strings(raw.nonResourceURLs, `${path}.nonResourceURLs`, problems);
  nonResourceURLs.forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/')) problems.push(`${path}.nonResourceURLs[${i}]: Invalid value: ${JSON.stringify(url)}: non-resource URL rules must begin with a '/' character`);
    if (url !== '' && url.slice(0, -1).includes('*')) problems.push(`${path}.nonResourceURLs[${i}]: Invalid value: ${JSON.stringify(url)}: non-resource URL wildcards '*' must be the final character of the rule`);
  });
  const resources: GroupResources[] = [];
  const rawResources = raw.resources ?? [];
  if (!Array.isArray(rawResources)) problems.push(`${path}.resources: Invalid value: must be a list`);
  (Array.isArray(rawResources) ? rawResources : []).forEach((gr: unknown, i) => {
    const where = `${path}.resources[${i}]`;
    if (!isDict(gr)) {
      problems.push(`${where}: Invalid value: must be a mapping with group, resources and resourceNames`);
      return;
    }
    const group = gr.group ?? '';
    if (typeof group !== 'string') {
      problems.push(`${where}.group: Invalid value: must be a string`);
      return;
    }
    // A group is a DNS subdomain: `rbac.authorization.k8s.io/v1` names a version, not a group.
    if (group !== '' && (group.length > 253 || !DNS_SUBDOMAIN.test(group))) {
      problems.push(`${path}.resources.group: Invalid value: ${JSON.stringify(group)}: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`);
    }
    const names = strings(gr.resources, `${where}.resources`, problems);
    const resourceNames = strings(gr.resourceNames, `${where}.resourceNames`, problems);
    if (resourceNames.length > 0 && names.length === 0) {
      problems.push(`${path}.resources.resourceNames: Invalid value: ${JSON.stringify(resourceNames)}: using resourceNames requires at least one resource`);
    }
    resources.push({ group, resources: names, resourceNames });
  });
  const omitStages = stages(raw.omitStages, `${path}.omitStages`, problems);
  if (nonResourceURLs.length > 0 && (resources.length > 0 || namespaces.length > 0)) {
    problems.push(`${path}.nonResourceURLs: Invalid value: ${JSON.stringify(nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`);
  }
  const omitManagedFields = bool(raw.omitManagedFields, `${path}.omitManagedFields`, problems);
  if (!ruleLevel) return undefined;
  return { level: ruleLevel, users, userGroups, verbs, resources, namespaces, nonResourceURLs, omitStages, ...(omitManagedFields !== undefined ? { omitManagedFields } : {}) };
}

function strings(v: unknown, path: string, problems: string[]): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    problems.push(`${path}: Invalid value: must be a list of strings`);
    return [];
  }
  return v as string[];
}

function stages(v: unknown, path: string, problems: string[]): AuditStage[] {
  const list = strings(v, path, problems);
  list.forEach((s, i) => {
    if (!(AUDIT_STAGES as readonly string[]).includes(s)) problems.push(`${path}[${i}]: Invalid value: ${JSON.stringify(s)}: allowed stages are ${AUDIT_STAGES.join(',')}`);
  });
  return list.filter((s): s is AuditStage => (AUDIT_STAGES as readonly string[]).includes(s));
}

function bool(v: unknown, path: string, problems: string[]): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') {
    problems.push(`${path}: Invalid value: must be true or false`);
    return undefined;
  }
  return v;
}
