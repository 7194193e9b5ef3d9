import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../machinery/api-names.js';
import { pickReviewVersion, verifyReviewResponse } from './admission-review.js';

const names = createApiNames('k8s.io');
const v1 = 'admission.k8s.io/v1';
const answer = (response: Record<string, unknown>, apiVersion: unknown = v1, kind: unknown = 'AdmissionReview') => ({ apiVersion, kind, response });

describe('AdmissionReview answers', () => {
  it('picks the first version the webhook lists that the server speaks', () => {
    expect(pickReviewVersion(['v2', 'v1beta1', 'v1'])).toBe('v1beta1');
    expect(pickReviewVersion(['v9'])).toBeUndefined();
  });

  it.each<[string, unknown, boolean, string]>([
    ['no response', { apiVersion: v1, kind: 'AdmissionReview' }, false, 'webhook response was absent'],
    ['another uid', answer({ uid: 'x', allowed: true }), false, 'expected response.uid="u", got "x"'],
    ['no apiVersion', { response: { uid: 'u', allowed: true } }, false, 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind='],
    ['v1beta1 for v1', answer({ uid: 'u', allowed: true }, 'admission.k8s.io/v1beta1'), false, 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview'],
    ['a patch without type', answer({ uid: 'u', allowed: true, patch: 'W10=' }), true, 'webhook returned response.patch but not response.patchType'],
    ['a type without patch', answer({ uid: 'u', allowed: true, patchType: 'JSONPatch' }), true, 'webhook returned response.patchType but not response.patch'],
    ['a validating patch', answer({ uid: 'u', allowed: true, patch: 'W10=', patchType: 'JSONPatch' }), false, 'validating webhook may not return response.patch'],
    ['a validating patch type', answer({ uid: 'u', allowed: true, patchType: 'JSONPatch' }), false, 'validating webhook may not return response.patchType'],
    ['a patch not in base64', answer({ uid: 'u', allowed: true, patch: '[{"op":"add"}]', patchType: 'JSONPatch' }), true, 'response.patch must be base64-encoded'],
  ])('refuses %s', (_, body, mutating, message) => {
    expect(() => verifyReviewResponse(names, 'v1', 'u', mutating, body)).toThrow(message);
  });

  it('does not hold v1beta1 answers to uid or kind, and takes their patch as a JSON patch', () => {
    const r = verifyReviewResponse(names, 'v1beta1', 'u', true, { response: { uid: 'other', allowed: true, patch: 'W10=', warnings: ['w'] } });
    expect(r).toMatchObject({ allowed: true, patchType: 'JSONPatch', warnings: ['w'] });
    expect(r.patch.toString()).toBe('[]');
  });
});
