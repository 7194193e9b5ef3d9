/** Accept, Content-Type and other headers: the usual ones, and odd or wrong values of each. */
import { DOMAIN, PROTOBUF_TYPE } from './catalogue.js';
import type { Random } from './random.js';

export type Header = [string, string];

export function acceptHeader(r: Random, bad: boolean): string | undefined {
  if (!bad) {
    return r.weighted<string | undefined>([
      [4, undefined],
      [4, 'application/json'],
      [1, 'application/yaml'],
      [1, PROTOBUF_TYPE],
      [1, `application/json;as=Table;v=v1;g=meta.${DOMAIN}`],
    ]);
  }
  return r.pick([
    '*/*',
    'application/*',
    'text/html',
    'text/plain',
    'application/json;q=0',
    `${PROTOBUF_TYPE}, application/json;q=0.5`,
    `application/json;as=Table;v=v1;g=meta.${DOMAIN}`,
    `application/json;as=Table;v=v1beta1;g=meta.${DOMAIN}`,
    'application/json;as=Table;v=v1;g=meta.k8s.io',
    `application/json;as=PartialObjectMetadata;v=v1;g=meta.${DOMAIN}`,
    `application/json;as=PartialObjectMetadataList;v=v1;g=meta.${DOMAIN}`,
    `${PROTOBUF_TYPE};as=Table;v=v1;g=meta.${DOMAIN}`,
    `application/yaml;as=Table;v=v1;g=meta.${DOMAIN}`,
    'application/json;as=Bogus;v=v1;g=x',
    'application/json;stream=watch',
    `application/json;g=apidiscovery.${DOMAIN};v=v2;as=APIGroupDiscoveryList`,
    `application/json;g=apidiscovery.${DOMAIN};v=v2beta1;as=APIGroupDiscoveryList`,
    ';;;',
    '',
    ',',
    'application/json;q=abc',
    'application/json;' + 'p=1;'.repeat(2000),
    'application/json, '.repeat(500),
    'application/vnd.kubernetes.protobuf',
    'application/cbor',
    'application/json; charset=latin1',
    '\u00e9/\u00e9',
  ]);
}

export function contentTypeFor(natural: string, r: Random, bad: boolean): string | undefined {
  if (!bad) return natural;
  return r.pick<string | undefined>([
    undefined,
    '',
    'text/plain',
    'application/json',
    'application/yaml',
    'application/x-yaml',
    PROTOBUF_TYPE,
    'application/merge-patch+json',
    'application/apply-patch+yaml',
    `${natural}; charset=utf-8`,
    `${natural}; charset=latin1`,
    `${natural}; charset=utf-16`,
    `${natural};;`,
    `${natural.toUpperCase()}`,
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    '*/*',
    'application/*',
    ';',
    'application/json, application/yaml',
    'application/cbor',
    `${natural}; ${'p=v; '.repeat(500)}`,
    '\u00e9',
  ]);
}

/** Headers with no business on an API request, or odd values of ones that do. */
export function oddHeaders(r: Random): Header[] {
  const h = r.pick<Header[]>([
    [['Content-Encoding', 'gzip']],
    [['Content-Encoding', 'br']],
    [['Accept-Encoding', 'gzip']],
    [['Accept-Encoding', 'gzip;q=0, identity;q=0']],
    [['Authorization', 'Bearer not-a-token']],
    [['Authorization', 'Basic ' + Buffer.from('u:p').toString('base64')]],
    [['Impersonate-User', 'system:admin']],
    [['Impersonate-Group', 'system:masters']],
    [['X-Remote-User', 'admin']],
    [['User-Agent', 'x'.repeat(8000)]],
    [['User-Agent', 'fuzz/\u00e9\u00ff']],
    [['Host', r.pick(['', 'a'.repeat(300), '[::1]:99999', 'h\u00e9', 'x:y:z', 'evil.example.com'])]],
    [['X-Forwarded-For', r.pick(['1.2.3.4', 'garbage', '::1, 10.0.0.1', ''])]],
    [['Audit-ID', r.pick(['', 'x'.repeat(5000), '\u00e9', 'a b'])]],
    [['X-HTTP-Method-Override', 'DELETE']],
    [['If-None-Match', '*']],
    [['Expect', '100-continue']],
    [['Connection', 'close']],
    [['Cookie', 'a=b'.repeat(100)]],
    [['Content-Language', '\u00ff']],
    [
      ['Accept', 'application/json'],
      ['Accept', 'application/yaml'],
    ],
    [['X-Odd', '\u0080\u00ff\t ']],
    [['Warning', '299 - "x"']],
    [['Range', 'bytes=0-10']],
  ]);
  return h;
}
