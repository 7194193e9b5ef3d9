/**
 * The pod rules about service accounts that the API cannot reach while ServiceAccount admission
 * runs (it names `default`, and refuses an account that does not exist, before validation).
 */
import { describe, expect, it } from 'vitest';
import { createApiNames } from '../../../../../machinery/api-names.js';
import { defaultPodObject } from '../defaults.js';
import { validatePodSpecRules } from './pod.js';

const names = createApiNames('orch.io');
const pod = (spec: Record<string, unknown>) => {
  const p = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'app', image: 'img:1', resources: {} }], ...spec }, status: {} } as unknown as Parameters<typeof defaultPodObject>[0];
  defaultPodObject(p);
  return p as unknown as Parameters<typeof validatePodSpecRules>[0];
};

describe('pod service-account rules', () => {
  it('refuses a token projection when the pod names no account', () => {
    const errs = validatePodSpecRules(pod({ volumes: [{ name: 'p', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }] } }] }), names);
    expect(errs).toContainEqual(expect.objectContaining({ field: 'spec.volumes[0].projected.sources[0].serviceAccountToken', type: 'FieldValueForbidden' }));
    const named = validatePodSpecRules(pod({ serviceAccountName: 'sa', volumes: [{ name: 'p', projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }] } }] }), names);
    expect(named).toEqual([]);
  });

  it('wants the account name to be a DNS subdomain', () => {
    expect(validatePodSpecRules(pod({ serviceAccountName: 'SA' }), names)).toContainEqual(expect.objectContaining({ field: 'spec.serviceAccountName' }));
  });
});
