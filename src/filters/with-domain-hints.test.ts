import { describe, expect, it } from 'vitest';
import { createApiNames } from '../machinery/api-names.js';
import { domainHints, type RequestFacts } from './with-domain-hints.js';

const orch = createApiNames('orch.io');
const FIX = '--api-domain=k8s.io';
const KUBECTL = 'kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07';

describe('domainHints on an orch.io server', () => {
  const cases: { name: string; req: RequestFacts; warns: RegExp[]; fails: Record<number, RegExp> }[] = [
    {
      name: 'a protobuf body in Kubernetes’ media type: its 415 says why',
      req: { path: '/api/v1/namespaces', contentType: 'application/vnd.kubernetes.protobuf', accept: 'application/json' },
      warns: [],
      fails: { 415: /application\/vnd\.kubernetes\.protobuf is Kubernetes' name for protobuf \(here application\/vnd\.orch\.protobuf\)/ },
    },
    {
      name: 'Kubernetes’ protobuf asked for, with a fallback',
      req: { path: '/api/v1/namespaces', accept: 'application/vnd.kubernetes.protobuf, application/json' },
      warns: [/^application\/vnd\.kubernetes\.protobuf is Kubernetes' name for protobuf .*, so the answer is not protobuf; this server serves the API domain orch\.io/],
      fails: { 406: /Accept header uses Kubernetes' names: application\/vnd\.kubernetes\.protobuf/ },
    },
    {
      name: 'kubectl’s Table in meta.k8s.io (v1 and v1beta1 give one warning)',
      req: { path: '/api/v1/namespaces', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' },
      warns: [/^as=Table;g=meta\.k8s\.io is Kubernetes' name \(here g=meta\.orch\.io\), so the answer is the plain object or list, not a Table;/],
      fails: { 406: /as=Table;g=meta\.k8s\.io/ },
    },
    {
      name: 'aggregated discovery in apidiscovery.k8s.io: no warning (the fallback serves as well), a reason on 406',
      req: { path: '/apis', accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' },
      warns: [],
      fails: { 406: /as=APIGroupDiscoveryList;g=apidiscovery\.k8s\.io is Kubernetes' name \(here g=apidiscovery\.orch\.io\)/ },
    },
    {
      name: 'a k8s.io group in a resource path: its 404 says which group is meant',
      req: { path: '/apis/rbac.authorization.k8s.io/v1/clusterroles' },
      warns: [],
      fails: { 404: /rbac\.authorization\.k8s\.io is Kubernetes' name of the group served here as rbac\.authorization\.orch\.io/ },
    },
    {
      name: 'a k8s.io group’s OpenAPI document',
      req: { path: '/openapi/v3/apis/apps.k8s.io/v1' },
      warns: [],
      fails: { 404: /apps\.k8s\.io is Kubernetes' name of the group served here as apps\.orch\.io/ },
    },
    {
      name: 'kubectl reading OpenAPI v3 documents (explain, validation)',
      req: { path: '/openapi/v3/api/v1', accept: 'application/json', userAgent: KUBECTL },
      warns: [/^kubectl finds a kind in OpenAPI by x-kubernetes-group-version-kind, which this server writes as x-orch-group-version-kind/],
      fails: {},
    },
    {
      name: 'kubectl reading OpenAPI v2',
      req: { path: '/openapi/v2', userAgent: KUBECTL },
      warns: [/x-orch-group-version-kind/],
      fails: {},
    },
  ];
  it.each(cases)('$name', ({ req, warns, fails }) => {
    const hints = domainHints(orch, req);
    expect(hints.warnings).toHaveLength(warns.length);
    warns.forEach((w, i) => {
      expect(hints.warnings[i]).toMatch(w);
      expect(hints.warnings[i]).toContain(FIX);
    });
    for (const code of [404, 406, 415]) {
      const text = hints.forFailure(code);
      const want = fails[code];
      if (want) {
        expect(text).toMatch(want);
        expect(text).toContain(FIX);
      } else {
        expect(text, `no hint for ${code}`).toBeUndefined();
      }
    }
  });

  const quiet: { name: string; req: RequestFacts }[] = [
    { name: 'JSON', req: { path: '/api/v1/namespaces', contentType: 'application/json', accept: 'application/json', userAgent: KUBECTL } },
    { name: 'the server’s own protobuf', req: { path: '/api/v1/namespaces', contentType: 'application/vnd.orch.protobuf', accept: 'application/vnd.orch.protobuf' } },
    { name: 'the server’s own Table', req: { path: '/api/v1/namespaces', accept: 'application/json;as=Table;v=v1;g=meta.orch.io' } },
    { name: 'the server’s own groups', req: { path: '/apis/rbac.authorization.orch.io/v1/clusterroles' } },
    { name: 'the OpenAPI index', req: { path: '/openapi/v3', userAgent: KUBECTL } },
    { name: 'OpenAPI read by a client that is not client-go', req: { path: '/openapi/v3/api/v1', userAgent: 'node-fetch' } },
    { name: 'a group that only looks like k8s.io', req: { path: '/apis/examplek8s.io/v1/things' } },
  ];
  it.each(quiet)('no hint for $name', ({ req }) => {
    const hints = domainHints(orch, req);
    expect(hints.warnings).toEqual([]);
    for (const code of [404, 406, 415]) expect(hints.forFailure(code)).toBeUndefined();
  });
});

describe('a k8s.io group defined on purpose', () => {
  it('gets no hint on its 404s', () => {
    const served = (group: string): boolean => group === 'things.k8s.io';
    expect(domainHints(orch, { path: '/apis/things.k8s.io/v1/things/x' }, served).forFailure(404)).toBeUndefined();
    expect(domainHints(orch, { path: '/apis/apps.k8s.io/v1/deployments' }, served).forFailure(404)).toContain(FIX);
  });
});

describe('domainHints on a k8s.io server', () => {
  it('says nothing: Kubernetes’ names are the server’s own', () => {
    const hints = domainHints(createApiNames('k8s.io'), {
      path: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      contentType: 'application/vnd.kubernetes.protobuf',
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
      userAgent: KUBECTL,
    });
    expect(hints.warnings).toEqual([]);
    for (const code of [404, 406, 415]) expect(hints.forFailure(code)).toBeUndefined();
  });
});

describe('domainHints on a server of a third domain', () => {
  it('names that domain and its own names', () => {
    const hints = domainHints(createApiNames('example.com'), { path: '/api/v1/pods', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' });
    expect(hints.warnings).toEqual([
      "as=Table;g=meta.k8s.io is Kubernetes' name (here g=meta.example.com), so the answer is the plain object or list, not a Table; this server serves the API domain example.com, not k8s.io: for kubectl and other Kubernetes clients, start it with --api-domain=k8s.io",
    ]);
  });
});
