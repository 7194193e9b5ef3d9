/**
 * Request targets: the path a verb needs, and damaged forms of it (dot segments raw and
 * percent-encoded, doubled slashes, bad escapes, odd names, unknown groups and versions, very long
 * paths, targets that are not paths at all).
 */
import { DOMAIN, prefixOf, type Kind } from './catalogue.js';
import type { Random } from './random.js';

export interface PathParts {
  kind: Kind;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** The legacy `/watch/` prefix form of a watch. */
  legacyWatch?: boolean;
}

const enc = (s: string): string => encodeURIComponent(s);

export function buildPath(p: PathParts): string {
  const segs = [prefixOf(p.kind)];
  if (p.legacyWatch) segs.push('watch');
  if (p.kind.namespaced && p.namespace !== undefined) segs.push('namespaces', enc(p.namespace));
  segs.push(p.kind.resource);
  if (p.name !== undefined) segs.push(enc(p.name));
  if (p.subresource !== undefined) segs.push(p.subresource);
  return segs.join('/');
}

const DOTS = ['.', '..', '%2e', '%2E', '%2e%2e', '%2E%2e', '.%2e', '%2e.', '...'];

/** One damage to a path already built; returns the new target and a note. */
export function damagePath(path: string, r: Random): { target: string; note: string } {
  const segs = path.split('/');
  const at = r.range(1, Math.max(1, segs.length - 1));
  const pick = r.int(16);
  switch (pick) {
    case 0: {
      const s = [...segs];
      s[at] = r.pick(DOTS);
      return { target: s.join('/'), note: `dot segment at ${at}` };
    }
    case 1:
      return { target: `${path}/${r.pick(DOTS)}`, note: 'trailing dot segment' };
    case 2: {
      const s = [...segs];
      s.splice(at, 0, r.pick(DOTS));
      return { target: s.join('/'), note: 'dot segment inserted' };
    }
    case 3:
      return { target: path.replace(/\//g, () => (r.chance(0.3) ? '//' : '/')), note: 'doubled slashes' };
    case 4:
      return { target: `${path}/`, note: 'trailing slash' };
    case 5: {
      const s = [...segs];
      s[at] = r.pick(['%', '%zz', '%2', '%00', '%c0%af', '%ff', '%2F', '%2f..%2f', '%252e', '%u002e', '%e2%82%ac', '%ed%a0%80', '%C3%28']);
      return { target: s.join('/'), note: 'odd percent escape' };
    }
    case 6: {
      const s = [...segs];
      s[at] = (s[at] ?? '').replace(/[a-z]/g, (c) => (r.chance(0.5) ? `%${c.charCodeAt(0).toString(16)}` : c));
      return { target: s.join('/'), note: 'letters percent-encoded' };
    }
    case 7: {
      const s = [...segs];
      s[at] = (s[at] ?? '').toUpperCase();
      return { target: s.join('/'), note: 'segment upper-cased' };
    }
    case 8:
      return { target: `${path}/${r.pick(['extra', 'status', 'scale', 'finalize', 'approval', 'log', 'exec', 'proxy', 'binding', 'eviction', 'a/b/c'])}`, note: 'extra segments' };
    case 9:
      return { target: `${path}/${'x'.repeat(r.pick([300, 5000, 70_000]))}`, note: 'very long segment' };
    case 10:
      return { target: '/a'.repeat(r.pick([500, 5000])) + path, note: 'very many segments' };
    case 11:
      return { target: path.replace(/\//g, r.pick(['\\', '/./', ';/', '/;x=1/'])), note: 'odd separators' };
    case 12:
      return { target: `${path}${r.pick(['#frag', '?', '??a=1', '?&', '?#', ';a=b', '%3Fwatch=1', '?watch=1?watch=2'])}`, note: 'odd suffix' };
    case 13:
      return { target: r.pick(['http://127.0.0.1' + path, 'http://%zz' + path, 'http://[::1' + path, 'https://x' + path, 'HTTP://a:99999' + path]), note: 'absolute form' };
    case 14:
      return { target: r.pick(['', '*', '//', '///', 'api', 'a:b', '/%', '/..', '/.', '/../..', '/api/..', '/apis/..%2f..', '//api/v1', '/\u00e9', '/%e9', '/\u00ff']), note: 'not a path' };
    default: {
      const s = [...segs];
      s[at] = r.pick(['', '%20', '\u00e9', 'a.b', 'A', 'x'.repeat(254), '0', '-', '*', '$', '~', '@']);
      return { target: s.join('/'), note: 'odd segment' };
    }
  }
}

/** Paths under /api and /apis that name no known resource, plus the non-resource paths. */
export function strayPath(r: Random): string {
  return r.pick([
    '/',
    '/api',
    '/api/v1',
    '/api/v2',
    '/api/v1/bogus',
    '/api/v1/namespaces/default/bogus',
    '/apis',
    '/apis/apps',
    '/apis/apps/v1',
    '/apis/apps/v1beta1/deployments',
    '/apis/apps/v9/namespaces/default/deployments',
    `/apis/bogus.${DOMAIN}/v1/things`,
    '/apis/bogus/v1/namespaces/default/things/x',
    `/apis/rbac.authorization.${DOMAIN}`,
    `/apis/flowcontrol.apiserver.${DOMAIN}/v1beta1/flowschemas`,
    `/apis/flowcontrol.apiserver.${DOMAIN}/v1beta3/flowschemas`,
    '/version',
    '/version/',
    '/healthz',
    '/healthz/ping',
    '/healthz/bogus',
    '/livez',
    '/readyz',
    '/readyz/x/y',
    '/metrics',
    '/openapi/v2',
    '/openapi/v3',
    '/openapi/v3/api/v1',
    '/openapi/v3/apis/bogus/v1',
    '/openapi/v3/../v2',
    '/logs',
    '/debug/pprof',
    '/api/v1/namespaces/default/pods/p/log',
    '/api/v1/namespaces',
    '/api/v1/namespaces/default',
    '/api/v1/watch',
    '/api/v1/watch/namespaces',
    '/api/v1/watch/namespaces/default',
    '/api/v1/namespaces/default/watch/configmaps',
  ]);
}
