/**
 * Kubernetes' CertificateSigningRequest validation: the signed request, signer name, usages,
 * lifetime, conditions and certificate, with what each write path (main resource, /status,
 * /approval) may change, and the tolerance of problems an existing object already has.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiNames } from '../../../machinery/api-names.js';
import { fieldErr, FieldPath, type FieldError } from '../../../machinery/field-errors.js';
import { isDns1123Label, isDns1123Subdomain, DNS1123_LABEL_MAX, DNS1123_SUBDOMAIN_MAX } from '../../../machinery/name-validation.js';
import { certificateProblem, certificateRequestProblem } from './pkcs10.js';
import { KEY_USAGES, type CertificateSigningRequest, type CsrCondition } from './types.js';

export interface CsrValidationOptions {
  /** /approval may add and change Approved and Denied conditions. */
  allowSettingApprovalConditions: boolean;
  /** /status may set the certificate. */
  allowSettingCertificate: boolean;
  // What an existing object already breaks stays acceptable on update:
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
}

const SORTED_USAGES = [...KEY_USAGES].sort();
/** Condition types that may only be True. */
const TRUE_ONLY_TYPES = new Set(['Approved', 'Denied', 'Failed']);
const ALL_STATUSES = ['False', 'True', 'Unknown'];

/** The signer name that meant "unknown" in v1beta1 and that v1 refuses for new requests. */
export function legacyUnknownSignerName(names: ApiNames): string {
  return names.labelKey('legacy-unknown');
}

const bytesOf = (b64: string | null | undefined): Buffer => Buffer.from(b64 ?? '', 'base64');

/** Kubernetes' ValidateSignerName: `domain/path`, the domain with two or more labels. */
export function validateSignerName(path: FieldPath, signerName: string): FieldError[] {
  if (!signerName) return [fieldErr.required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [fieldErr.invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > DNS1123_SUBDOMAIN_MAX) errs.push(fieldErr.tooLong(path, DNS1123_SUBDOMAIN_MAX));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const problems = isDns1123Label(label);
    // The first bad label is enough: later ones would only repeat the same messages.
    if (problems.length) {
      for (const m of problems) errs.push(fieldErr.invalid(path, domain, `validating label ${JSON.stringify(label)}: ${m}`));
      break;
    }
  }
  if (domainLabels.length < 2) errs.push(fieldErr.invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of rest.split('.')) {
    const problems = isDns1123Subdomain(label);
    if (problems.length) {
      for (const m of problems) errs.push(fieldErr.invalid(path, rest, `validating label ${JSON.stringify(label)}: ${m}`));
      break;
    }
  }
  const maxLength = DNS1123_SUBDOMAIN_MAX + (DNS1123_SUBDOMAIN_MAX + DNS1123_LABEL_MAX + 1) + 1;
  if (signerName.length > maxLength) errs.push(fieldErr.tooLong(path, maxLength));
  return errs;
}

function validateConditions(csr: CertificateSigningRequest, opts: CsrValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.root('status').child('conditions');
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  (csr.status.conditions ?? []).forEach((c, i) => {
    const p = path.index(i);
    if (!opts.allowEmptyConditionType && !c.type) errs.push(fieldErr.required(p.child('type')));
    const allowed = TRUE_ONLY_TYPES.has(c.type) ? ['True'] : ALL_STATUSES;
    if (!c.status) errs.push(fieldErr.required(p.child('status')));
    else if (!allowed.includes(c.status)) errs.push(fieldErr.notSupported(p.child('status'), c.status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (c.type === 'Approved') {
        approved = true;
        if (denied) errs.push(fieldErr.invalid(p.child('type'), c.type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (c.type === 'Denied') {
        denied = true;
        if (approved) errs.push(fieldErr.invalid(p.child('type'), c.type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(c.type)) errs.push(fieldErr.duplicate(p.child('type'), c.type));
      seen.add(c.type);
    }
  });
  return errs;
}

export function validateCsr(csr: CertificateSigningRequest, opts: CsrValidationOptions, names: ApiNames): FieldError[] {
  const errs: FieldError[] = [];
  const spec = FieldPath.root('spec');
  const requestProblem = certificateRequestProblem(bytesOf(csr.spec.request));
  if (requestProblem) errs.push(fieldErr.invalid(spec.child('request'), csr.spec.request ?? null, requestProblem));
  const usages = csr.spec.usages ?? [];
  if (usages.length === 0) errs.push(fieldErr.required(spec.child('usages')));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!(KEY_USAGES as readonly string[]).includes(u)) errs.push(fieldErr.notSupported(spec.child('usages').index(i), u, SORTED_USAGES));
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(fieldErr.duplicate(spec.child('usages').index(i), u));
      seen.add(u);
    });
  }
  if (!opts.allowLegacySignerName && csr.spec.signerName === legacyUnknownSignerName(names)) {
    errs.push(fieldErr.invalid(spec.child('signerName'), csr.spec.signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName(spec.child('signerName'), csr.spec.signerName));
  }
  const seconds = csr.spec.expirationSeconds;
  if (seconds !== undefined && seconds < 600) {
    errs.push(fieldErr.invalid(spec.child('expirationSeconds'), seconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const problem = certificateProblem(bytesOf(csr.status.certificate));
    if (problem) errs.push(fieldErr.invalid(FieldPath.root('status').child('certificate'), '<certificate data>', problem));
  }
  return errs;
}

const conditionsOfType = (csr: CertificateSigningRequest, type: string): CsrCondition[] => (csr.status.conditions ?? []).filter((c) => c.type === type);

/** The options for a write: strict for a create, relaxed by what the stored object already breaks. */
export function csrValidationOptions(csr: CertificateSigningRequest, old: CertificateSigningRequest | undefined, names: ApiNames): CsrValidationOptions {
  const oldConditions = old?.status.conditions ?? [];
  const oldTypes = oldConditions.map((c) => c.type);
  const oldUsages = old?.spec.usages ?? [];
  const sameCertificate = !!old && (csr.status.certificate ?? '') === (old.status.certificate ?? '');
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes('Approved') && oldTypes.includes('Denied'),
    allowLegacySignerName: !!old && old.spec.signerName === legacyUnknownSignerName(names),
    allowDuplicateConditionTypes: new Set(oldTypes).size !== oldTypes.length,
    allowEmptyConditionType: oldTypes.includes(''),
    allowArbitraryCertificate: sameCertificate || (!!old && certificateProblem(bytesOf(old.status.certificate)) !== undefined),
    allowUnknownUsages: oldUsages.some((u) => !(KEY_USAGES as readonly string[]).includes(u)),
    allowDuplicateUsages: new Set(oldUsages).size !== oldUsages.length,
  };
}

/** The rules of an update, for whichever path it came through (see the options). */
export function validateCsrUpdate(csr: CertificateSigningRequest, old: CertificateSigningRequest, opts: CsrValidationOptions, names: ApiNames): FieldError[] {
  const errs = validateCsr(csr, opts, names);
  const conditionsPath = FieldPath.root('status').child('conditions');
  for (const type of ['Approved', 'Denied', 'Failed']) {
    if (conditionsOfType(csr, type).length < conditionsOfType(old, type).length) {
      errs.push(fieldErr.forbidden(conditionsPath, `updates may not remove a condition of type ${JSON.stringify(type)}`));
    }
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const type of ['Approved', 'Denied']) {
      const before = conditionsOfType(old, type);
      const after = conditionsOfType(csr, type);
      if (after.length > before.length) errs.push(fieldErr.forbidden(conditionsPath, `updates may not add a condition of type ${JSON.stringify(type)}`));
      else if (after.length === before.length && !isDeepStrictEqual(before, after)) {
        errs.push(fieldErr.forbidden(conditionsPath, `updates may not modify a condition of type ${JSON.stringify(type)}\n- ${JSON.stringify(before)}\n+ ${JSON.stringify(after)}`));
      }
    }
  }
  if ((csr.status.certificate ?? '') !== (old.status.certificate ?? '')) {
    if (!opts.allowSettingCertificate) errs.push(fieldErr.forbidden(FieldPath.root('status').child('certificate'), 'updates may not set certificate content'));
    else if (old.status.certificate) errs.push(fieldErr.forbidden(FieldPath.root('status').child('certificate'), 'updates may not modify existing certificate content'));
  }
  return errs;
}
