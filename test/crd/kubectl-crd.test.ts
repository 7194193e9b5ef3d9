/**
 * kubectl against custom resources, under --api-domain=k8s.io: a project's CRD manifest (a
 * cert-manager-like Certificate with printer columns, status and scale) installed with kubectl,
 * `kubectl wait` for Established, objects applied client-side and server-side, `get` with the
 * printer columns, `explain` from the published OpenAPI, `scale`, and deletion. Skips without kubectl.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPath, runKubectl, type Run } from '../helpers/kubectl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const bin = onPath('kubectl');
if (!bin) console.log('kubectl CRD tests skipped: no kubectl on PATH');

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: certificates.cert-manager.io
  labels:
    app.kubernetes.io/name: cert-manager
spec:
  group: cert-manager.io
  names:
    kind: Certificate
    listKind: CertificateList
    plural: certificates
    shortNames: [cert, certs]
    singular: certificate
    categories: [cert-manager]
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
    additionalPrinterColumns:
    - jsonPath: .status.conditions[?(@.type=="Ready")].status
      name: Ready
      type: string
    - jsonPath: .spec.secretName
      name: Secret
      type: string
    - jsonPath: .spec.issuerRef.name
      name: Issuer
      type: string
      priority: 1
    - jsonPath: .metadata.creationTimestamp
      name: Age
      type: date
    schema:
      openAPIV3Schema:
        description: A Certificate resource should be created to ensure an up to date and signed X.509 certificate is stored in the Kubernetes Secret resource named in spec.secretName.
        type: object
        required: [spec]
        properties:
          apiVersion: {type: string, description: APIVersion defines the versioned schema of this representation of an object.}
          kind: {type: string, description: Kind is a string value representing the REST resource this object represents.}
          metadata: {type: object}
          spec:
            description: Specification of the desired state of the Certificate resource.
            type: object
            required: [issuerRef, secretName]
            properties:
              secretName: {type: string, description: Name of the Secret resource that will be automatically created and managed by this Certificate resource.}
              commonName: {type: string}
              duration: {type: string}
              replicas: {type: integer, minimum: 0}
              dnsNames:
                type: array
                items: {type: string}
                x-kubernetes-list-type: set
              usages:
                type: array
                items: {type: string, enum: [signing, digital signature, server auth, client auth]}
              issuerRef:
                description: Reference to the issuer responsible for issuing the certificate.
                type: object
                required: [name]
                properties:
                  name: {type: string}
                  kind: {type: string}
                  group: {type: string}
          status:
            type: object
            properties:
              replicas: {type: integer}
              conditions:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [type]
                items:
                  type: object
                  required: [status, type]
                  properties:
                    type: {type: string}
                    status: {type: string, enum: ["True", "False", "Unknown"]}
                    reason: {type: string}
                    message: {type: string}
`;

const CERT = `apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: example-com
  namespace: default
spec:
  secretName: example-com-tls
  commonName: example.com
  replicas: 1
  dnsNames: [example.com, www.example.com]
  issuerRef: {name: letsencrypt, kind: ClusterIssuer}
`;

const CERT2 = CERT.replace('name: example-com\n', 'name: other\n').replace('example-com-tls', 'other-tls');

describe.skipIf(!bin)('kubectl with a CustomResourceDefinition', () => {
  let s: TestServer;
  let dir: string;
  const kubectl = (...args: string[]): Promise<Run> => runKubectl(bin as string, ['--kubeconfig', join(dir, 'kubeconfig'), ...args], { timeoutMs: 60_000 });

  beforeAll(async () => {
    s = await startTestServer({ apiDomain: 'k8s.io' });
    dir = mkdtempSync(join(tmpdir(), 'orch-crd-kubectl-'));
    writeFileSync(join(dir, 'kubeconfig'), s.server.kubeconfig());
    writeFileSync(join(dir, 'crd.yaml'), CRD);
    writeFileSync(join(dir, 'cert.yaml'), CERT);
    writeFileSync(join(dir, 'cert2.yaml'), CERT2);
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs the CRD and waits for it to be Established', async () => {
    let r = await kubectl('apply', '-f', join(dir, 'crd.yaml'));
    expect(r.stdout.trim(), r.stderr).toBe('customresourcedefinition.apiextensions.k8s.io/certificates.cert-manager.io created');
    r = await kubectl('wait', '--for=condition=Established', '--timeout=30s', 'crd/certificates.cert-manager.io');
    expect(r.stdout.trim(), r.stderr).toBe('customresourcedefinition.apiextensions.k8s.io/certificates.cert-manager.io condition met');
    r = await kubectl('api-resources', '--api-group=cert-manager.io');
    expect(r.stdout, r.stderr).toMatch(/certificates\s+cert,certs\s+cert-manager.io\/v1\s+true\s+Certificate/);
  });

  it('applies objects client-side and server-side and lists them with the printer columns', async () => {
    let r = await kubectl('apply', '-f', join(dir, 'cert.yaml'));
    expect(r.stdout.trim(), r.stderr).toBe('certificate.cert-manager.io/example-com created');
    r = await kubectl('apply', '--server-side', '-f', join(dir, 'cert2.yaml'));
    expect(r.stdout.trim(), r.stderr).toBe('certificate.cert-manager.io/other serverside-applied');
    // A status written by a controller shows in the Ready column.
    const status = await s.patch('/apis/cert-manager.io/v1/namespaces/default/certificates/example-com/status', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, 'application/merge-patch+json');
    expect(status.status, status.text).toBe(200);
    r = await kubectl('get', 'certs');
    const lines = r.stdout.trim().split('\n');
    expect(lines[0], r.stderr).toMatch(/^NAME\s+READY\s+SECRET\s+AGE$/);
    expect(lines[1]).toMatch(/^example-com\s+True\s+example-com-tls\s+\d+s$/);
    // No Ready condition: an empty cell, as kubectl prints a null cell.
    expect(lines[2]).toMatch(/^other\s+other-tls\s+\d+s$/);
    r = await kubectl('get', 'certificate', 'example-com', '-o', 'wide');
    expect(r.stdout.split('\n')[0]).toMatch(/^NAME\s+READY\s+SECRET\s+ISSUER\s+AGE$/);
    expect(r.stdout).toContain('letsencrypt');
    // Applying again with a change: a patch computed from the last-applied annotation.
    writeFileSync(join(dir, 'cert.yaml'), CERT.replace('commonName: example.com', 'commonName: www.example.com'));
    r = await kubectl('apply', '-f', join(dir, 'cert.yaml'));
    expect(r.stdout.trim(), r.stderr).toBe('certificate.cert-manager.io/example-com configured');
    expect((await s.get('/apis/cert-manager.io/v1/namespaces/default/certificates/example-com')).body.spec.commonName).toBe('www.example.com');
  });

  it('refuses an invalid object with the schema messages', async () => {
    writeFileSync(join(dir, 'bad.yaml'), CERT.replace('name: example-com\n', 'name: bad\n').replace('  secretName: example-com-tls\n', '').replace('replicas: 1', 'replicas: -1'));
    const r = await kubectl('apply', '-f', join(dir, 'bad.yaml'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The Certificate "bad" is invalid');
    expect(r.stderr).toContain('spec.secretName: Required value');
    expect(r.stderr).toContain('spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0');
  });

  it('explains the resource from its schema', async () => {
    const r = await kubectl('explain', 'certificate.spec.issuerRef');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Reference to the issuer responsible for issuing the certificate.');
    expect(r.stdout.match(/Reference to the issuer/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/name\s+<string> -required-/);
  });

  it('scales through /scale', async () => {
    let r = await kubectl('scale', 'certificate', 'example-com', '--replicas=3');
    expect(r.stdout.trim(), r.stderr).toBe('certificate.cert-manager.io/example-com scaled');
    expect((await s.get('/apis/cert-manager.io/v1/namespaces/default/certificates/example-com')).body.spec.replicas).toBe(3);
    r = await kubectl('get', 'certificate', 'example-com', '-o', 'jsonpath={.spec.replicas}');
    expect(r.stdout).toBe('3');
  });

  it('deletes the CRD and its objects', async () => {
    let r = await kubectl('delete', '-f', join(dir, 'crd.yaml'), '--timeout=30s');
    expect(r.stdout.trim(), r.stderr).toBe('customresourcedefinition.apiextensions.k8s.io "certificates.cert-manager.io" deleted');
    r = await kubectl('get', 'certificates');
    expect(r.code).not.toBe(0);
    // kubectl may still hold the resource in its discovery cache: then the list itself is refused.
    expect(r.stderr).toMatch(/the server doesn't have a resource type "certificates"|the server could not find the requested resource/);
  });
});
