/**
 * Test kinds for the write-path suites, served through createServer's `resources` option, and small
 * helpers shared by the files under test/rest/.
 */
import { expect } from 'vitest';
import { defineResource, t, type ObjectOf } from '../../src/index.js';
import { nameValidators } from '../../src/machinery/name-validation.js';
import { statusSubresource } from '../../src/registry/subresources.js';
import { objectHeader } from '../../src/schema/index.js';
import type { Reply, TestServer } from '../helpers/server.js';

export const WIDGET_GROUP = 'widgets.example.com';

const WidgetSchema = t.struct('com.example.widgets.v1.Widget', {
  ...objectHeader,
  spec: t.field(2, t.struct('com.example.widgets.v1.WidgetSpec', {
    size: t.field(1, t.int32()),
    color: t.field(2, t.string()),
    tags: t.field(3, t.map(t.string())),
  })),
  status: t.field(3, t.struct('com.example.widgets.v1.WidgetStatus', {
    ready: t.field(1, t.bool()),
    observedGeneration: t.field(2, t.int64()),
  })),
});
type Widget = ObjectOf<typeof WidgetSchema>;

/**
 * Widgets: namespaced, created by PUT, generation-tracked, with a status subresource and no
 * kind-specific status handling (the generic store must keep status and spec apart by itself).
 */
export const widgetResource = defineResource<Widget>(() => ({
  group: WIDGET_GROUP,
  version: 'v1',
  kind: 'Widget',
  resource: 'widgets',
  singular: 'widget',
  namespaced: true,
  schema: WidgetSchema,
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    allowCreateOnUpdate: true,
    trackGeneration: true,
    validate: (w) => ((w.spec.size ?? 0) < 0 ? [{ type: 'FieldValueInvalid', field: 'spec.size', value: w.spec.size, detail: 'must be greater than or equal to 0' }] : []),
  },
  subresources: { status: statusSubresource<Widget>() },
}));

/**
 * Gadgets: cluster-scoped, with a scripted name generator so generateName collisions can be
 * provoked on purpose. `nextNames` is consumed front to back; when empty the last name repeats.
 */
export const gadgetNames: string[] = [];
let lastGadgetName = 'gadget-fixed';

const GadgetSchema = t.struct('com.example.widgets.v1.Gadget', {
  ...objectHeader,
  spec: t.field(2, t.struct('com.example.widgets.v1.GadgetSpec', { note: t.field(1, t.string()) })),
});
type Gadget = ObjectOf<typeof GadgetSchema>;

export const gadgetResource = defineResource<Gadget>(() => ({
  group: WIDGET_GROUP,
  version: 'v1',
  kind: 'Gadget',
  resource: 'gadgets',
  singular: 'gadget',
  namespaced: false,
  schema: GadgetSchema,
  strategy: {
    nameValidator: nameValidators.dnsSubdomain,
    generateName: (prefix: string) => {
      const next = gadgetNames.shift();
      if (next !== undefined) lastGadgetName = next;
      return `${prefix}${lastGadgetName}`;
    },
  },
}));

export const TEST_RESOURCES = [widgetResource, gadgetResource];

export const WIDGETS = `/apis/${WIDGET_GROUP}/v1/namespaces/default/widgets`;
export const GADGETS = `/apis/${WIDGET_GROUP}/v1/gadgets`;
export const CM = '/api/v1/namespaces/default/configmaps';
export const SECRETS = '/api/v1/namespaces/default/secrets';
export const NAMESPACES = '/api/v1/namespaces';

/** Asserts the reply is a failure Status with the given code and reason; returns the Status. */
export function expectStatus(r: Reply, code: number, reason: string): any {
  expect(r.status, r.text).toBe(code);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(r.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code });
  expect(typeof r.body.message).toBe('string');
  return r.body;
}

/** The texts of the Warning headers of a reply, unquoted. */
export function warningsOf(r: Reply): string[] {
  const raw = r.headers.warning;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.flatMap((h) => [...h.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] as string).replace(/\\(.)/g, '$1')));
}

/** Polls `check` until it returns a value that is not undefined (the server works in the background). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, attempts = 200): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** A fresh namespace for a test, so tests do not see each other's objects. */
export async function makeNamespace(s: TestServer, name: string): Promise<void> {
  const r = await s.post(NAMESPACES, { metadata: { name } });
  expect(r.status, r.text).toBe(201);
}
