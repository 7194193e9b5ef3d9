import { describe, expect, it } from 'vitest';
import type { ConfigMap } from '../../apis/core/v1/configmap.js';
import { rootCaConfigMapName } from '../../apis/core/v1/service-account-names.js';
import { createApiNames } from '../../machinery/api-names.js';
import { rootCaAction, rootCaDescription } from './index.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const cm = (data: Record<string, string>, annotations?: Record<string, string>): ConfigMap =>
  ({ metadata: { name: 'orch-root-ca.crt', ...(annotations ? { annotations } : {}) }, data }) as ConfigMap;

describe('root CA publisher', () => {
  const names = createApiNames('orch.io');
  const description = rootCaDescription(names);

  it('names the ConfigMap after the domain', () => {
    expect(rootCaConfigMapName(names)).toBe('orch-root-ca.crt');
    expect(rootCaConfigMapName(createApiNames('k8s.io'))).toBe('kube-root-ca.crt');
    expect(rootCaDescription(createApiNames('k8s.io')).key).toBe('kubernetes.io/description');
    expect(description.key).toBe('orch.io/description');
  });

  it.each([
    ['missing', undefined, 'create'],
    ['exactly the CA, described', cm({ 'ca.crt': CA }, { 'orch.io/description': 'x' }), 'none'],
    ['the CA without the description', cm({ 'ca.crt': CA }), 'update'],
    ['another CA', cm({ 'ca.crt': 'old' }, { 'orch.io/description': 'x' }), 'update'],
    ['an extra key', cm({ 'ca.crt': CA, extra: '1' }, { 'orch.io/description': 'x' }), 'update'],
    ['no data', cm({}, { 'orch.io/description': 'x' }), 'update'],
  ])('%s: %s', (_what, current, want) => {
    expect(rootCaAction(current, CA, description.key)).toBe(want);
  });
});
