/**
 * Server-side apply against every built-in kind, from the fixture its definition carries: apply
 * creates it with one Apply entry, the same apply again changes nothing (same resourceVersion),
 * and a second manager adding a label shares the object without a conflict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinResources } from '../../src/apis/index.js';
import { createApiNames } from '../../src/machinery/api-names.js';
import { ALL_VERBS, type ResourceDefinition } from '../../src/registry/define-resource.js';
import { startTestServer, TEST_SERVER_CONTROLLERS, type TestServer } from '../helpers/server.js';

const APPLY = 'application/apply-patch+yaml';
const names = createApiNames();
const definitions: ResourceDefinition[] = builtinResources
  .map((f) => f(names, { names }))
  .filter((d) => d.fixture && ['create', 'patch', 'get'].every((v) => (d.verbs ?? ALL_VERBS).includes(v as never)))
  // A controller writes a CRD's status right after its create, so "a re-apply changes nothing" cannot
  // be observed on it; test/crd covers applying CRDs.
  .filter((d) => d.kind !== 'CustomResourceDefinition');

function collection(def: ResourceDefinition, ns: string): string {
  const base = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
  return def.namespaced ? `${base}/namespaces/${ns}/${def.resource}` : `${base}/${def.resource}`;
}

let s: TestServer;
const NS = 'apply-every-kind';
beforeAll(async () => {
  // APF off: with it, the server writes each FlowSchema's Dangling condition just after its create; no
  // disruption controller: it would write PDB status between applies; no quota controller: it fills a quota's status after its create.
  s = await startTestServer({ enablePriorityAndFairness: false, controllerManager: { controllers: [...TEST_SERVER_CONTROLLERS, '-disruption', '-resourcequota'] } });
  expect((await s.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
});
afterAll(() => s.close());

describe.each(definitions.map((d) => [`${d.group || 'core'}/${d.version} ${d.resource}`, d] as const))('apply: %s', (_label, def) => {
  it('creates, re-applies without a change, and shares the object with a second manager', async () => {
    // The group is part of the name: core/v1 and events/v1 Events are one stored object.
    const raw = `ssa-${def.group.split('.')[0] || 'core'}-${def.singular}-${def.version}`.replace(/[^a-z0-9-]/g, '-');
    // A kind whose name follows its content (a CRD) names the objects the suite makes.
    const name = def.fixtureName?.(raw) ?? raw;
    const url = `${collection(def, NS)}/${name}`;
    const fixture = (def.fixture as (n?: string) => Record<string, unknown>)(name);
    const config = { ...fixture, apiVersion: def.group ? `${def.group}/${def.version}` : def.version, kind: def.kind, metadata: { ...((fixture.metadata as object) ?? {}), name } };

    const created = await s.patch(`${url}?fieldManager=first`, config, APPLY);
    expect(created.status, created.text).toBe(201);
    const entries = created.body.metadata.managedFields;
    expect(entries.map((e: any) => [e.manager, e.operation])).toEqual([['first', 'Apply']]);
    expect(Object.keys(entries[0].fieldsV1).length).toBeGreaterThan(0);

    const again = await s.patch(`${url}?fieldManager=first`, config, APPLY);
    expect(again.status, again.text).toBe(200);
    expect(again.body.metadata.resourceVersion).toBe(created.body.metadata.resourceVersion);

    const labelled = await s.patch(
      `${url}?fieldManager=second`,
      { apiVersion: config.apiVersion, kind: def.kind, metadata: { name, labels: { second: 'yes' } } },
      APPLY,
    );
    expect(labelled.status, labelled.text).toBe(200);
    expect(labelled.body.metadata.labels.second).toBe('yes');
    expect(labelled.body.metadata.managedFields.map((e: any) => e.manager)).toEqual(['first', 'second']);
  });
});
