import { describe, expect, it } from 'vitest';
import { legacyLine } from './legacy-format.js';
import type { AuditEvent } from './types.js';

const base: AuditEvent = {
  kind: 'Event',
  apiVersion: 'audit.orch.io/v1',
  level: 'Metadata',
  auditID: 'id-1',
  stage: 'ResponseComplete',
  requestURI: '/api/v1/namespaces/default/pods?limit=5',
  verb: 'list',
  user: { username: 'jane', groups: ['dev', 'system:authenticated'] },
  sourceIPs: ['10.0.0.1', '127.0.0.1'],
  userAgent: 'kubectl/v1.25',
  objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
  responseStatus: { metadata: {}, code: 200 },
  requestReceivedTimestamp: '2026-11-25T04:15:37.120000Z',
  stageTimestamp: '2026-11-25T04:15:37.130000Z',
};

describe('the legacy log line', () => {
  it("is Kubernetes' one line of text", () => {
    expect(legacyLine(base)).toBe(
      '2026-11-25T04:15:37.12Z AUDIT: id="id-1" stage="ResponseComplete" ip="10.0.0.1" method="list" user="jane" groups="\\"dev\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="kubectl/v1.25" namespace="default" uri="/api/v1/namespaces/default/pods?limit=5" response="200"',
    );
  });

  it('says <none>, <deferred> and <unknown> for what is missing, and names the impersonated user', () => {
    const { responseStatus: _r, sourceIPs: _s, objectRef: _o, ...rest } = base;
    const line = legacyLine({ ...rest, stage: 'RequestReceived', user: {}, impersonatedUser: { username: 'bob', groups: ['x'] }, requestReceivedTimestamp: '2026-11-25T04:15:37.000000Z' });
    expect(line).toBe(
      '2026-11-25T04:15:37Z AUDIT: id="id-1" stage="RequestReceived" ip="<unknown>" method="list" user="<none>" groups="<none>" as="bob" asgroups="\\"x\\"" user-agent="kubectl/v1.25" namespace="<none>" uri="/api/v1/namespaces/default/pods?limit=5" response="<deferred>"',
    );
  });
});
