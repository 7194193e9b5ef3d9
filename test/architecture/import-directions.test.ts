/** DESIGN §3's import directions, checked over the real source tree on every test run. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importEdges, violations, type ImportEdge } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const edge = (from: string, to: string): ImportEdge => ({ from, to, specifier: to });

describe('import directions (DESIGN §3)', () => {
  it('src/ has no import against them', () => {
    const edges = importEdges(SRC);
    expect(edges.length).toBeGreaterThan(500);
    expect(violations(edges)).toEqual([]);
  });

  it.each([
    ['registry/generic-store.ts', 'admission/types.ts'],
    ['controllers/gc/follow.ts', 'storage/kv.ts'],
    ['machinery/codec/x.ts', 'schema/dsl.ts'],
    ['filters/with-x.ts', 'server/logger.ts'],
    ['endpoints/handlers/watch.ts', 'storage/encoded-object.ts'],
    ['http/context.ts', 'machinery/errors.ts'],
    ['apis/core/v1/pod.ts', 'registry/generic-store.ts'],
    ['apis/core/v1/pod.ts', 'storage/kv.ts'],
    ['apis/core/v1/pod.ts', 'endpoints/respond.ts'],
    ['machinery/errors.ts', 'registry/registry.ts'],
    ['storage/kv.ts', 'registry/registry.ts'],
    ['schema/dsl.ts', 'apply/index.ts'],
    ['registry/registry.ts', 'endpoints/installer.ts'],
    ['endpoints/installer.ts', 'server/routes.ts'],
    ['registry/registry.ts', 'index.ts'],
    ['nowhere/x.ts', 'machinery/errors.ts'],
    ['machinery/x.ts', 'nowhere/y.ts'],
    ['machinery/x.ts', '../test/helpers/server.ts'],
  ])('refuses %s → %s', (from, to) => {
    expect(violations([edge(from, to)])).toHaveLength(1);
  });

  it.each([
    ['apis/core/v1/pod.ts', 'registry/define-resource.ts'],
    ['apis/core/v1/pod.ts', 'apis/core/v1/types/index.ts'],
    ['registry/generic-store.ts', 'storage/kv.ts'],
    ['endpoints/installer.ts', 'registry/registry.ts'],
    ['machinery/request-context.ts', 'http/context.ts'],
    ['server/create-server.ts', 'storage/sqlite/sqlite-kv.ts'],
    ['main.ts', 'server/create-server.ts'],
    ['filters/with-panic-recovery.ts', 'endpoints/respond.ts'],
  ])('allows %s → %s', (from, to) => {
    expect(violations([edge(from, to)])).toEqual([]);
  });
});
