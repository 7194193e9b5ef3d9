import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_AUDIT_METRICS } from './backend.js';
import { createAuditor, type AuditConfig } from './auditor.js';
import type { AuditEvent } from './types.js';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const deps = { auditGroup: 'audit.orch.io', patchAnnotationPrefix: 'patch.webhook.admission.orch.io/', credentialResources: [], log: silent, metrics: NO_AUDIT_METRICS };
const POLICY = 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Metadata\n';
const event = (id: string): AuditEvent => ({ kind: 'Event', apiVersion: 'audit.orch.io/v1', level: 'Metadata', auditID: id, stage: 'ResponseComplete', requestURI: '/', verb: 'get', user: {}, requestReceivedTimestamp: '', stageTimestamp: '' });

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('createAuditor', () => {
  it('audits nothing without a policy, or without a backend', () => {
    expect(createAuditor({ log: { path: '-' } }, deps)).toBeUndefined();
    expect(createAuditor({ policyText: POLICY }, deps)).toBeUndefined();
  });

  it.each<[string, AuditConfig, string]>([
    ['a mode', { policyText: POLICY, log: { path: '-', mode: 'fast' as never } }, 'invalid audit log mode fast, allowed modes are "batch,blocking,blocking-strict"'],
    ['a buffer', { policyText: POLICY, log: { path: '-', mode: 'batch', batch: { bufferSize: 0 } } }, 'invalid audit batch log buffer size 0, must be a positive number'],
    ['a throttle', { policyText: POLICY, webhook: { target: { server: 'https://127.0.0.1:1', insecureSkipTlsVerify: false }, batch: { throttleQps: 0 } } }, 'invalid audit batch webhook throttle QPS 0, must be a positive number'],
    ['a negative size', { policyText: POLICY, log: { path: '-', maxSizeMegabytes: -1 } }, "--audit-log-maxsize -1 can't be a negative number"],
  ])('refuses %s out of range', (_what, config, message) => {
    expect(() => createAuditor(config, deps)).toThrow(message);
  });

  it('in log batch mode, writes every event in the background and all of them by shutdown', async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-auditor-'));
    const path = join(dir, 'audit.log');
    const auditor = createAuditor({ policyText: POLICY, log: { path, mode: 'batch' } }, deps);
    for (let i = 0; i < 5; i++) expect(auditor?.process(event(`e${i}`))).toBe(true);
    await auditor?.shutdown();
    const ids = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as AuditEvent).auditID);
    expect(ids).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
  });
});
