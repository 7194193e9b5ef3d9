/**
 * HorizontalPodAutoscaler over HTTP: stored as autoscaling/v2, served as v1 (CPU target, the rest
 * in round-trip annotations) and the deprecated v2beta2 (Warning, gauge); Kubernetes' defaults and
 * validation; /status; kubectl's columns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { expectCauses, MERGE, warningsOf } from '../core/helpers.js';

const V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const V2BETA2 = '/apis/autoscaling/v2beta2/namespaces/default/horizontalpodautoscalers';
const TABLE = 'application/json;as=Table;g=meta.orch.io;v=v1';
const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

describe('HorizontalPodAutoscaler', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.close());

  it('is served in autoscaling v2 (preferred), v1 and v2beta2, short name hpa, category all, with /status', async () => {
    const group = (await s.get('/apis/autoscaling')).body;
    expect(group.versions.map((v: any) => v.version)).toEqual(['v2', 'v1', 'v2beta2']);
    expect(group.preferredVersion.version).toBe('v2');
    for (const v of ['v1', 'v2', 'v2beta2']) {
      const resources = (await s.get(`/apis/autoscaling/${v}`)).body.resources;
      expect(resources.find((r: any) => r.name === 'horizontalpodautoscalers')).toMatchObject({ kind: 'HorizontalPodAutoscaler', shortNames: ['hpa'], categories: ['all'] });
      expect(resources.find((r: any) => r.name === 'horizontalpodautoscalers/status')).toBeDefined();
    }
  });

  it('v2: defaults the minimum, the CPU metric and the scaling rules; an empty status; kubectl\'s row', async () => {
    const made = await s.post(V2, { metadata: { name: 'web' }, spec: { scaleTargetRef: target, maxReplicas: 5, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }, status: { desiredReplicas: 3 } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.spec).toEqual({
      scaleTargetRef: target,
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      behavior: {
        scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
        scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      },
    });
    expect(made.body.status).toEqual({ desiredReplicas: 0, currentMetrics: null });
    const row = (await s.get(`${V2}/web`, { accept: TABLE })).body;
    expect(row.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
    expect(row.rows[0].cells.slice(0, 6)).toEqual(['web', 'Deployment/web', '<unknown>/80%', '1', 5, 0]);
  });

  it('v2: replica bounds, the target reference, metrics and scaling rules checked in Kubernetes\' words', async () => {
    expectCauses(
      await s.post(V2, {
        metadata: { name: 'bad' },
        spec: {
          scaleTargetRef: { kind: '', name: 'a/b' },
          minReplicas: 0,
          maxReplicas: 0,
          metrics: [
            { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'Value' } } },
            { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50, averageValue: '1' } }, pods: { metric: { name: 'x' }, target: { type: 'AverageValue', averageValue: '1' } } },
          ],
          behavior: { scaleUp: { policies: [{ type: 'Pods', value: 0, periodSeconds: 1801 }] } },
        },
      }),
      [
        { field: 'spec.minReplicas', message: 'Invalid value: 0: must be greater than or equal to 1' },
        { field: 'spec.maxReplicas', message: 'Invalid value: 0: must be greater than 0' },
        { reason: 'FieldValueRequired', field: 'spec.scaleTargetRef.kind', message: 'Required value' },
        { field: 'spec.scaleTargetRef.name', message: 'Invalid value: "a/b": may not contain \'/\'' },
        { reason: 'FieldValueRequired', field: 'spec.metrics[0].pods.target.averageValue', message: 'Required value: must specify a positive target averageValue' },
        // Only the first source set (in the order object, external, pods, resource) is checked further.
        { reason: 'FieldValueForbidden', field: 'spec.metrics[1].pods', message: 'Forbidden: must populate the given metric source only' },
        { reason: 'FieldValueForbidden', field: 'spec.metrics', message: 'Forbidden: must specify at least one Object or External metric to support scaling to zero replicas' },
        { field: 'spec.behavior.scaleUp.policies[0].value', message: 'Invalid value: 0: must be greater than zero' },
        { field: 'spec.behavior.scaleUp.policies[0].periodSeconds', message: 'Invalid value: 1801: must be less than or equal to 1800' },
      ],
    );
  });

  it('v1: a CPU target in, a CPU metric stored; other metrics, readings and conditions round-trip through annotations', async () => {
    const made = await s.post(V1, { metadata: { name: 'legacy' }, spec: { scaleTargetRef: target, maxReplicas: 4, targetCPUUtilizationPercentage: 70 } });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({ apiVersion: 'autoscaling/v1', spec: { minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 70 }, status: { currentReplicas: 0, desiredReplicas: 0 } });
    expect((await s.get(`${V2}/legacy`)).body.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);

    const rich = await s.post(V2, {
      metadata: { name: 'rich', annotations: { team: 'a' } },
      spec: {
        scaleTargetRef: target,
        maxReplicas: 9,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
          { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
        ],
      },
    });
    expect(rich.status, rich.text).toBe(201);
    const status = await s.patch(`${V2}/rich/status`, {
      status: {
        currentReplicas: 2,
        desiredReplicas: 3,
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 65, averageValue: '300m' } } }],
        conditions: [{ type: 'AbleToScale', status: 'True', reason: 'ReadyForNewScale', lastTransitionTime: '2024-01-01T00:00:00Z' }],
      },
    }, MERGE);
    expect(status.status, status.text).toBe(200);
    const asV1 = await s.get(`${V1}/rich`);
    expect(asV1.body.spec).toEqual({ scaleTargetRef: target, minReplicas: 1, maxReplicas: 9, targetCPUUtilizationPercentage: 50 });
    expect(asV1.body.status).toEqual({ currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 65 });
    const ann = asV1.body.metadata.annotations;
    expect(ann.team).toBe('a');
    expect(JSON.parse(ann['autoscaling.alpha.orch.io/metrics'])).toEqual([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
    expect(JSON.parse(ann['autoscaling.alpha.orch.io/current-metrics'])).toEqual([{ type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 65, currentAverageValue: '300m' } }]);
    expect(JSON.parse(ann['autoscaling.alpha.orch.io/conditions'])[0]).toMatchObject({ type: 'AbleToScale', reason: 'ReadyForNewScale' });

    expect((await s.get(`${V2}/rich`, { accept: TABLE })).body.rows[0].cells[2]).toBe('65%/50%, <unknown>/10');

    // Written back through v1 unchanged, the v2 object keeps every metric (the CPU one last, as
    // Kubernetes' conversion puts it) and carries no round-trip annotation.
    const before = (await s.get(`${V2}/rich`)).body;
    const put = await s.put(`${V1}/rich`, asV1.body);
    expect(put.status, put.text).toBe(200);
    const after = (await s.get(`${V2}/rich`)).body;
    expect(after.spec).toEqual({ ...before.spec, metrics: [before.spec.metrics[1], before.spec.metrics[0]] });
    expect(after.metadata.annotations).toEqual({ team: 'a' });
  });

  it('v2beta2: the same objects, with the deprecation warning', async () => {
    const got = await s.get(`${V2BETA2}/web`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ apiVersion: 'autoscaling/v2beta2', kind: 'HorizontalPodAutoscaler', spec: { maxReplicas: 5 } });
    expect(warningsOf(got)).toEqual(['autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler']);
    expect(warningsOf(await s.get(`${V1}/web`))).toEqual([]);
  });
});
