/**
 * The request generator: picks a kind and a verb, builds the valid request for it, then damages some
 * of its parts (path, query, headers, body). About a third of the requests stay valid, so that stored
 * state grows and the bad requests meet existing objects, names and namespaces.
 */
import { objectBody, type Body } from './bodies.js';
import { DOMAIN, KINDS, apiVersionOf, type Kind } from './catalogue.js';
import { acceptHeader, contentTypeFor, oddHeaders, type Header } from './headers.js';
import { mutateObject, validObject, type JsonObject } from './objects.js';
import { patchBody, type PatchType } from './patches.js';
import { buildPath, damagePath, strayPath } from './paths.js';
import { queryFor, type Verb } from './query.js';
import type { Random } from './random.js';
import type { FuzzRequest } from './request.js';
import { oddName, oddScalar } from './values.js';

const VERBS: readonly (readonly [number, Verb])[] = [
  [25, 'create'],
  [10, 'update'],
  [16, 'patch'],
  [12, 'get'],
  [12, 'list'],
  [5, 'watch'],
  [8, 'delete'],
  [2, 'deletecollection'],
];

const METHOD: Record<Verb, string> = {
  get: 'GET',
  list: 'GET',
  watch: 'GET',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETE',
};

interface Damage {
  path: boolean;
  query: boolean;
  headers: boolean;
  body: boolean;
}

function chooseDamage(r: Random): Damage {
  if (r.chance(0.35)) return { path: false, query: false, headers: false, body: false };
  const d = { path: r.chance(0.2), query: r.chance(0.3), headers: r.chance(0.2), body: r.chance(0.55) };
  if (!d.path && !d.query && !d.headers && !d.body) d.body = true;
  return d;
}

/** Namespaces the fuzzer creates and fills; `default` always exists. */
const namespaceNames = (r: Random): string => r.weighted([
  [5, 'default'],
  [3, `fz-${r.int(4)}`],
  [1, 'kube-system'],
  [1, 'missing'],
]);

function objectName(kind: Kind, r: Random, odd: boolean): string {
  if (odd && r.chance(0.3)) return oddName(r);
  if (kind.kind === 'Namespace') return `fz-${r.int(6)}`;
  return `f-${r.int(kind.dnsLabel ? 30 : 60)}`;
}

/** The object a write carries; a subresource write carries a Scale or the whole object. */
function writeObject(kind: Kind, name: string, namespace: string, subresource: string | undefined, r: Random): JsonObject {
  if (subresource === 'scale') {
    return { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name, namespace }, spec: { replicas: r.range(0, 5) } };
  }
  const obj = validObject(kind, name, namespace, r);
  if (subresource === 'status') obj.status = statusFor(kind, r);
  if (subresource === 'approval') obj.status = { conditions: [{ type: r.pick(['Approved', 'Denied', 'Failed', 'Bogus']), status: 'True', reason: 'Fuzz' }] };
  return obj;
}

function statusFor(kind: Kind, r: Random): JsonObject {
  switch (kind.kind) {
    case 'Pod':
      return { phase: r.pick(['Running', 'Pending', 'Bogus']), podIP: r.pick(['10.0.0.5', 'nope']) };
    case 'Deployment':
    case 'ReplicaSet':
      return { replicas: r.range(0, 3), readyReplicas: r.range(0, 3), observedGeneration: r.range(0, 3) };
    case 'Service':
      return { loadBalancer: { ingress: [{ ip: r.pick(['1.2.3.4', 'bad']) }] } };
    case 'Node':
      return { capacity: { cpu: r.pick(['2', '-1', 'x']), pods: '110' } };
    default:
      return { phase: r.pick(['Active', 'Bound', 'Available', 'Bogus']) };
  }
}

function deleteOptionsBody(r: Random, bad: boolean): Body | undefined {
  if (!bad && r.chance(0.7)) return undefined;
  const opts: JsonObject = { kind: 'DeleteOptions', apiVersion: 'v1' };
  if (r.chance(0.5)) opts.propagationPolicy = r.pick(['Background', 'Foreground', 'Orphan']);
  if (bad) {
    const field = r.pick(['preconditions', 'gracePeriodSeconds', 'propagationPolicy', 'dryRun', 'orphanDependents', 'kind', 'apiVersion']);
    opts[field] =
      field === 'preconditions'
        ? { uid: r.pick(['', 'nope', 'x'.repeat(100)]), resourceVersion: r.pick(['1', 'abc', '']) }
        : field === 'kind'
          ? r.pick(['Pod', 'DeleteOptions', ''])
          : field === 'apiVersion'
            ? r.pick([`meta.${DOMAIN}/v1`, 'v2', 'apps/v1', ''])
            : oddScalar(r);
  }
  return { bytes: Buffer.from(JSON.stringify(opts)), contentType: 'application/json', note: 'DeleteOptions' };
}

/** Generates the next request from the random source. */
export function generateRequest(r: Random): FuzzRequest {
  if (r.chance(0.06)) return strayRequest(r);
  const kind = r.pick(KINDS);
  const verb = r.weighted(VERBS);
  const damage = chooseDamage(r);
  const namespace = damage.path && r.chance(0.2) ? oddName(r) : namespaceNames(r);
  const name = objectName(kind, r, damage.path);
  const perObject = verb === 'get' || verb === 'update' || verb === 'patch' || verb === 'delete';
  const subresource = (verb === 'get' || verb === 'update' || verb === 'patch') && kind.subresources.length > 0 && r.chance(0.2) ? r.pick(kind.subresources) : undefined;
  const acrossNamespaces = (verb === 'list' || verb === 'watch') && kind.namespaced && r.chance(0.3);
  const legacyWatch = verb === 'watch' && r.chance(0.2);

  let path = buildPath({
    kind,
    ...(acrossNamespaces ? {} : { namespace }),
    ...(perObject ? { name } : {}),
    ...(subresource ? { subresource } : {}),
    ...(legacyWatch ? { legacyWatch } : {}),
  });
  const notes: string[] = [`${verb} ${kind.resource}${subresource ? `/${subresource}` : ''}`];
  if (damage.path) {
    const d = damagePath(path, r);
    path = d.target;
    notes.push(`path: ${d.note}`);
  }

  const base: [string, string][] = [];
  if (verb === 'watch' && !legacyWatch) base.push(['watch', '1']);
  if (verb === 'watch') base.push(['timeoutSeconds', '1']);

  let body: Body | undefined;
  if (verb === 'create' || verb === 'update') {
    const obj = writeObject(kind, name, namespace, subresource, r);
    if (damage.body && r.chance(0.6)) notes.push(`object: ${mutateObject(obj, r)}`);
    body = objectBody(obj, r, damage.body && r.chance(0.5), kind.kind === 'ConfigMap' || damage.body);
  } else if (verb === 'patch') {
    const type = r.weighted<PatchType>([
      [3, 'merge'],
      [3, 'strategic'],
      [2, 'json'],
      [3, 'apply'],
    ]);
    if (type === 'apply' && !(damage.query && r.chance(0.3))) base.push(['fieldManager', r.pick(['fuzz', 'fuzz-2'])]);
    if (type === 'apply' && r.chance(0.3)) base.push(['force', 'true']);
    const obj = writeObject(kind, name, namespace, subresource, r);
    if (damage.body && type === 'apply' && r.chance(0.5)) notes.push(`object: ${mutateObject(obj, r)}`);
    body = patchBody(type, obj, r, damage.body);
  } else if (verb === 'delete' || verb === 'deletecollection') {
    body = deleteOptionsBody(r, damage.body);
  } else if (damage.body && r.chance(0.3)) {
    body = { bytes: Buffer.from('{"unexpected":"body"}'), contentType: 'application/json', note: 'body on a read' };
  }
  if (body) notes.push(body.note);

  const q = queryFor(verb, r, damage.query, base);
  if (q.note) notes.push(`query: ${q.note}`);
  const target = q.query ? `${path}${path.includes('?') ? '&' : '?'}${q.query}` : path;

  const headers: Header[] = [];
  const accept = acceptHeader(r, damage.headers && r.chance(0.5));
  if (accept !== undefined) headers.push(['Accept', accept]);
  if (body) {
    const ct = contentTypeFor(body.contentType, r, damage.headers && r.chance(0.5));
    if (ct !== undefined) headers.push(['Content-Type', ct]);
  }
  if (damage.headers && r.chance(0.5)) {
    headers.push(...oddHeaders(r));
    notes.push('odd headers');
  }
  return { method: METHOD[verb], target, headers, ...(body ? { body: body.bytes } : {}), streaming: verb === 'watch', note: notes.join('; ') };
}

/** A request to a path that names no resource, or to a resource path with a method it does not take. */
function strayRequest(r: Random): FuzzRequest {
  const method = r.weighted([
    [6, 'GET'],
    [1, 'HEAD'],
    [1, 'POST'],
    [1, 'PUT'],
    [1, 'DELETE'],
    [1, 'PATCH'],
    [1, 'OPTIONS'],
    [1, r.pick(['TRACE', 'CONNECT', 'PROPFIND', 'BREW', 'get'])],
  ]);
  let target = strayPath(r);
  if (r.chance(0.3)) target = damagePath(target, r).target;
  const headers: Header[] = [];
  const accept = acceptHeader(r, r.chance(0.5));
  if (accept !== undefined) headers.push(['Accept', accept]);
  const withBody = method !== 'GET' && method !== 'HEAD' && r.chance(0.5);
  if (withBody) headers.push(['Content-Type', 'application/json']);
  const kind = r.pick(KINDS);
  const body = withBody ? Buffer.from(JSON.stringify({ apiVersion: apiVersionOf(kind), kind: kind.kind, metadata: { name: 'stray' } })) : undefined;
  return { method, target, headers, ...(body ? { body } : {}), streaming: false, note: 'stray path' };
}
