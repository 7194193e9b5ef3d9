import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '../../apis/rbac/v1/types.js';
import { compactString, covers, escalationMessage } from './covers.js';

describe('covers', () => {
  const cases: [string, PolicyRule[], PolicyRule[], boolean][] = [
    ['the same rule', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], true],
    ['a subset of verbs', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }], true],
    ['a verb more', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }], false],
    ['split across owned rules', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }], true],
    ['* covers everything', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['escalate'], apiGroups: ['x'], resources: ['y/z'], resourceNames: ['n'] }], true],
    ['*/scale covers deployments/scale', [{ verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] }], [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }], true],
    ['named owner does not cover every name', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], false],
    ['named owner covers its name', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a', 'b'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['b'] }], true],
    ['a prefix URL covers a path under it', [{ verbs: ['get'], nonResourceURLs: ['/logs/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/logs/a'] }], true],
    ['a URL does not cover another', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }], false],
    ['nothing asked', [], [], true],
  ];
  it.each(cases)('%s', (_l, owned, wanted, want) => expect(covers(owned, wanted).covered).toBe(want));

  it('names the missing pieces, compacted by resource, sorted, in Kubernetes words', () => {
    const { missing } = covers([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'secrets'] },
      { verbs: ['get'], nonResourceURLs: ['/metrics'] },
    ]);
    expect(escalationMessage({ username: 'alice', groups: ['dev', 'system:authenticated'] }, missing, [])).toBe(
      'user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["list" "watch"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list" "watch"]}\n' +
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    );
  });

  it('writes every part of a rule', () => {
    expect(compactString({ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'] })).toBe('{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["get"]}');
  });
});
