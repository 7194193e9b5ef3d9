/**
 * ComponentStatus (v1, deprecated since 1.19): the health of the control plane's parts, computed
 * at each read and never stored, as kube-apiserver 1.25 answers `kubectl get componentstatuses`:
 *
 * - `etcd-0`: the storage backend this server uses (SQLite, memory or etcd) answers a revision
 *   read; healthy reads as etcd's own `{"health":"true","reason":""}`;
 * - `controller-manager`: this server runs its controllers in its own process, so the honest
 *   answer is that they run (Healthy, `ok`) — probing kube-controller-manager's port would speak
 *   of a process that is not ours;
 * - `scheduler`: this server has none; like 1.25 it probes https://127.0.0.1:10259/healthz
 *   (certificate not checked), so an external scheduler on the node reports there, and none
 *   reports Unhealthy with the connection error.
 */
import { request } from 'node:https';
import { nameValidators } from '../../../machinery/name-validation.js';
import { column, defineResource, defineTable, nameColumn } from '../../../registry/define-resource.js';
import { objectHeader, t, type ObjectOf } from '../../../schema/index.js';

export const ComponentConditionSchema = t.struct('core.v1.ComponentCondition', {
  type: t.required(1, t.string(), { always: true, description: 'The condition: Healthy.' }),
  status: t.required(2, t.string(), { always: true, description: 'True, False or Unknown.' }),
  message: t.field(3, t.string(), { description: 'What the component answered.' }),
  error: t.field(4, t.string(), { description: 'Why the component could not be checked.' }),
}, { description: 'One condition of a component.' });

export const ComponentStatusSchema = t.struct('core.v1.ComponentStatus', {
  ...objectHeader,
  conditions: t.field(2, t.list(ComponentConditionSchema, { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'map', listMapKeys: ['type'] }), {
    description: 'The conditions of the component.',
  }),
}, { description: 'The health of one control-plane component. Deprecated in v1.19+.' });
export type ComponentStatus = ObjectOf<typeof ComponentStatusSchema>;
type ComponentCondition = NonNullable<ComponentStatus['conditions']>[number];

export const SCHEDULER_HEALTHZ = { host: '127.0.0.1', port: 10259, path: '/healthz' } as const;
const PROBE_TIMEOUT_MS = 5_000;

const healthy = (message: string): ComponentCondition => ({ type: 'Healthy', status: 'True', message });
const unhealthy = (message: string, error = ''): ComponentCondition => ({ type: 'Healthy', status: 'False', message, ...(error ? { error } : {}) });

/** Go's net/http error text for a refused or failed connection, which 1.25 shows as the message. */
function dialError(url: string, host: string, port: number, e: NodeJS.ErrnoException): string {
  const why = e.code === 'ECONNREFUSED' ? 'connect: connection refused' : e.code === 'ETIMEDOUT' ? 'i/o timeout' : e.message;
  return `Get "${url}": dial tcp ${host}:${port}: ${why}`;
}

/** An HTTPS probe as Kubernetes' HTTP prober reads it: 2xx/3xx healthy with the body, else unhealthy. */
export function probeHealthz(target: { host: string; port: number; path: string }, signal: AbortSignal): Promise<ComponentCondition> {
  const url = `https://${target.host}:${target.port}${target.path}`;
  return new Promise((resolve) => {
    const req = request({ host: target.host, port: target.port, path: target.path, method: 'GET', rejectUnauthorized: false, timeout: PROBE_TIMEOUT_MS, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.length < 64 && chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8').slice(0, 10_000);
        const code = res.statusCode ?? 0;
        resolve(code >= 200 && code < 400 ? healthy(body) : unhealthy(`HTTP probe failed with statuscode: ${code}`));
      });
      res.on('error', (e) => resolve(unhealthy(dialError(url, target.host, target.port, e))));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => resolve(unhealthy(dialError(url, target.host, target.port, e))));
    req.end();
  });
}

/** `kubectl get cs`: Healthy or Unhealthy from the Healthy condition, Unknown without one. */
export const componentStatusTable = defineTable<ComponentStatus>({
  columns: [
    nameColumn,
    column('Status', 'Status of the component conditions'),
    column('Message', 'Message of the component conditions'),
    column('Error', 'Error of the component conditions'),
  ],
  cells: (cs) => {
    const c = cs.conditions?.find((x) => x.type === 'Healthy');
    return [cs.metadata.name ?? '', c ? (c.status === 'True' ? 'Healthy' : 'Unhealthy') : 'Unknown', c?.message ?? '', c?.error ?? ''];
  },
});

export const componentStatusResource = defineResource<ComponentStatus>((_names, env) => ({
  group: '',
  version: 'v1',
  kind: 'ComponentStatus',
  resource: 'componentstatuses',
  singular: 'componentstatus',
  namespaced: false,
  shortNames: ['cs'],
  verbs: ['get', 'list'],
  schema: ComponentStatusSchema,
  table: componentStatusTable,
  deprecation: { deprecatedIn: '1.19' },
  strategy: { nameValidator: nameValidators.pathSegment },
  async computed({ signal }) {
    const storage = async (): Promise<ComponentCondition> => {
      if (!env.storageHealth) return unhealthy('', 'no storage backend');
      try {
        await env.storageHealth();
        return healthy('{"health":"true","reason":""}');
      } catch (e) {
        return unhealthy('', e instanceof Error ? e.message : String(e));
      }
    };
    const [scheduler, etcd] = await Promise.all([probeHealthz(SCHEDULER_HEALTHZ, signal), storage()]);
    const item = (name: string, condition: ComponentCondition): ComponentStatus => ({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name }, conditions: [condition] }) as ComponentStatus;
    return [item('controller-manager', healthy('ok')), item('etcd-0', etcd), item('scheduler', scheduler)];
  },
}));
