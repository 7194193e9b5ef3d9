import { describe, expect, it } from 'vitest';
import type { Secret } from '../../apis/core/v1/secret.js';
import { createApiNames } from '../../machinery/api-names.js';
import { cleanerDecision } from './index.js';

const names = createApiNames('orch.io');
const NOW = new Date('2026-06-01T00:00:00Z');
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const secret = (data: Record<string, string>, over: { type?: string; namespace?: string } = {}): Secret =>
  ({
    metadata: { name: 'bootstrap-token-abc123', namespace: over.namespace ?? 'orch-system' },
    type: over.type ?? 'bootstrap.orch.io/token',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  }) as Secret;

describe('cleanerDecision', () => {
  it.each([
    ['expired a second ago', secret({ expiration: '2026-05-31T23:59:59Z' }), { action: 'delete' }],
    ['expiring now', secret({ expiration: '2026-06-01T00:00:00Z' }), { action: 'delete' }],
    ['with an expiration that cannot be read (as Kubernetes: expired)', secret({ expiration: 'tomorrow' }), { action: 'delete' }],
    ['expiring in an hour', secret({ expiration: '2026-06-01T01:00:00Z' }), { action: 'recheck', afterMs: 3_600_000 }],
    ['in another zone, an hour ahead', secret({ expiration: '2026-06-01T02:00:00+01:00' }), { action: 'recheck', afterMs: 3_600_000 }],
    ['without an expiration', secret({}), { action: 'none' }],
    ['of another type', secret({ expiration: '2020-01-01T00:00:00Z' }, { type: 'Opaque' }), { action: 'none' }],
    ['in another namespace', secret({ expiration: '2020-01-01T00:00:00Z' }, { namespace: 'default' }), { action: 'none' }],
  ])('a token %s', (_what, s, want) => {
    expect(cleanerDecision(s, names, NOW)).toEqual(want);
  });
});
