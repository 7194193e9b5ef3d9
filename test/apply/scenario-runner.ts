/**
 * Runs apply scenarios written as data: a list of writes (apply, create, update, merge, strategic or JSON
 * patch, each by a manager, optionally to /status or /scale) against a real server, each followed by what
 * the request answers and, read back, what the object and its managedFields are.
 *
 * - An apply body gets apiVersion, kind and metadata.name filled in unless it sets them (an
 *   autoscaling/v1 Scale for /scale; the test kinds' /scale view stands for spec.replicas).
 * - `object` compares the listed top-level fields exactly; under `metadata` only the listed keys.
 * - `managedFields` compares every entry without its time, in (operation, manager, subresource)
 *   order: entries written within one second may come back in either order.
 * - A failing write must leave the object as it was (same resourceVersion and content).
 */
import { expect } from 'vitest';
import type { Reply, TestServer } from '../helpers/server.js';
import { APPLY_GROUP } from './kinds.js';

type Json = Record<string, unknown>;

export interface ExpectedEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  subresource?: string;
  /** Defaults to the kind's group/version. */
  apiVersion?: string;
  fields: Json;
}

export interface Expect {
  /** HTTP status; 200 by default (201 for creates). */
  status?: number;
  /** The Status message of a failed write. */
  message?: string;
  /** [cause message, cause field] of each conflict, in the order the server lists them. */
  conflicts?: [string, string][];
  object?: Json;
  /** Every entry of metadata.managedFields; [] when there must be none. */
  managedFields?: ExpectedEntry[];
}

interface StepBase {
  /** The fieldManager parameter; left out when undefined. */
  manager?: string;
  userAgent?: string;
  subresource?: 'status' | 'scale';
  expect?: Expect;
}

export type Step =
  | (StepBase & { apply: Json | string; force?: boolean })
  | (StepBase & { create: Json })
  | (StepBase & { update: Json })
  | (StepBase & { mergePatch: Json })
  | (StepBase & { strategicPatch: Json })
  | (StepBase & { jsonPatch: Json[] });

export interface Scenario {
  name: string;
  /** The test kind written to (default markers). */
  resource?: 'markers' | 'looses';
  steps: Step[];
}

const KINDS = { markers: 'Marker', looses: 'Loose' } as const;
const API_VERSION = `${APPLY_GROUP}/v1`;

function withIdentity(body: Json, kind: string, name: string, subresource?: string): Json {
  const meta = (body.metadata ?? {}) as Json;
  const type = subresource === 'scale' ? { apiVersion: 'autoscaling/v1', kind: 'Scale' } : { apiVersion: API_VERSION, kind };
  return { ...type, ...body, metadata: { name, ...meta } };
}

function entryKey(e: { operation?: unknown; manager?: unknown; subresource?: unknown }): string {
  return `${String(e.operation)}\u0000${String(e.manager)}\u0000${String(e.subresource ?? '')}`;
}

function normalizeEntries(entries: unknown): ExpectedEntry[] {
  return ((entries ?? []) as Json[])
    .map((e) => {
      expect(e.fieldsType).toBe('FieldsV1');
      return {
        manager: e.manager as string,
        operation: e.operation as 'Apply' | 'Update',
        ...(e.subresource ? { subresource: e.subresource as string } : {}),
        apiVersion: e.apiVersion as string,
        fields: e.fieldsV1 as Json,
      };
    })
    .sort((a, b) => (entryKey(a) < entryKey(b) ? -1 : 1));
}

async function send(s: TestServer, path: string, step: Step, kind: string, name: string): Promise<Reply> {
  const q = new URLSearchParams();
  if (step.manager !== undefined) q.set('fieldManager', step.manager);
  if ('force' in step && step.force) q.set('force', 'true');
  const url = `${path}${step.subresource && !('create' in step) ? `/${name}/${step.subresource}` : 'create' in step ? '' : `/${name}`}${q.size ? `?${q}` : ''}`;
  const headers = step.userAgent ? { 'user-agent': step.userAgent } : undefined;
  const opts = headers ? { headers } : {};
  if ('apply' in step) {
    const body = typeof step.apply === 'string' ? step.apply : withIdentity(step.apply, kind, name, step.subresource);
    return s.patch(url, body, 'application/apply-patch+yaml', opts);
  }
  if ('create' in step) return s.post(url, withIdentity(step.create, kind, name), opts);
  if ('update' in step) return s.put(url, withIdentity(step.update, kind, name, step.subresource), opts);
  if ('mergePatch' in step) return s.patch(url, step.mergePatch, 'application/merge-patch+json', opts);
  if ('strategicPatch' in step) return s.patch(url, step.strategicPatch, 'application/strategic-merge-patch+json', opts);
  return s.patch(url, step.jsonPatch, 'application/json-patch+json', opts);
}

function checkObject(actual: Json, expected: Json): void {
  for (const [key, want] of Object.entries(expected)) {
    if (key === 'metadata') {
      const meta = actual.metadata as Json;
      for (const [mk, mv] of Object.entries(want as Json)) expect(meta[mk], `metadata.${mk}`).toEqual(mv);
    } else {
      expect(actual[key], key).toEqual(want);
    }
  }
}

export async function runScenario(s: TestServer, scenario: Scenario, name: string): Promise<void> {
  const resource = scenario.resource ?? 'markers';
  const kind = KINDS[resource];
  const path = `/apis/${APPLY_GROUP}/v1/namespaces/default/${resource}`;
  for (const [i, step] of scenario.steps.entries()) {
    const where = `${scenario.name}, step ${i + 1}`;
    const before = await s.get(`${path}/${name}`);
    const reply = await send(s, path, step, kind, name);
    const want = step.expect ?? {};
    const created = 'create' in step || (before.status === 404 && 'apply' in step);
    const status = want.status ?? (created ? 201 : 200);
    expect(reply.status, `${where}: ${reply.text}`).toBe(status);
    if (want.message !== undefined) expect(reply.body.message, where).toBe(want.message);
    if (want.conflicts) {
      expect(reply.body.reason, where).toBe('Conflict');
      const causes = (reply.body.details?.causes ?? []) as Json[];
      expect(causes.map((c) => [c.message, c.field]), where).toEqual(want.conflicts);
      for (const c of causes) expect(c.reason).toBe('FieldManagerConflict');
    }
    const after = await s.get(`${path}/${name}`);
    if (status >= 400) {
      // A refused write changes nothing.
      expect(after.status, where).toBe(before.status);
      if (before.status === 200) expect(after.body, where).toEqual(before.body);
    }
    if (want.object) checkObject(after.body, want.object);
    if (want.managedFields) {
      const expected = want.managedFields.map((e) => ({ ...e, apiVersion: e.apiVersion ?? API_VERSION })).sort((a, b) => (entryKey(a) < entryKey(b) ? -1 : 1));
      expect(normalizeEntries(after.body.metadata.managedFields), `${where}: managedFields`).toEqual(expected);
    }
  }
}
