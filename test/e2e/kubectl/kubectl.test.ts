/**
 * Every installed kubectl (1.27 … 1.33 beside the real path of the kubectl on PATH, and that one too)
 * against one real server started from the built CLI (`dist/main.js`), the way a user meets it:
 *
 * - under `--api-domain=k8s.io`, issue 5's whole list per version: get (every output, -A, -w,
 *   --sort-by, --show-labels, --chunk-size), describe, create from files and generators, apply
 *   client-side and server-side, diff, patch of each type, label, annotate, scale, rollout status
 *   (the test plays the deployment controller by writing /status), delete (waiting), wait --for,
 *   api-resources and explain;
 * - under the default orch.io domain, the flows that go through discovery, for 1.27 and the newest.
 *
 * One server per domain, one namespace and one --cache-dir per version; the tests of a version run
 * concurrently, each on objects of its own. Skips, saying why, when kubectl is not installed.
 * Other kubectl suites prove narrower facts in depth (protobuf bodies in test/protobuf, managedFields
 * in test/apply, strategic-merge edge cases in test/patch, OpenAPI validation in test/openapi, each
 * kind in test/kinds); this one is where the full list is proven for each version.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedKubectls, kubectlPicks, kubectlSandbox, clientVersion, loggedRequests, pkiFlags, runKubectl, type Kubectl, type KubectlSandbox, type Run } from '../../helpers/kubectl.js';
import { httpCall, type Reply } from '../../helpers/server.js';
import { ensureBuilt, startCli, type CliServer } from '../helpers/cli.js';
import { configMap, deployment, namespace, pod, service } from './manifests.js';

const { found, absent } = installedKubectls();
if (found.length === 0) console.log('kubectl e2e skipped: no kubectl on PATH');
else console.log(`kubectl e2e: running ${found.map((k) => k.label).join(', ')}; absent: ${absent.length ? absent.join(', ') : 'none'}`);

const FIXTURES = join(import.meta.dirname, 'fixtures');
const MERGE = 'application/merge-patch+json';

/** A version's own namespace: `k127`, ..., `kpath`. */
const nsOf = (k: Kubectl): string => (k.onPath ? 'kpath' : `k1${k.minor}`);

interface Ctx {
  server: CliServer;
  box: KubectlSandbox;
}

/** Starts the CLI server with `args` and a sandbox holding the kubeconfig it wrote; stops both after the suite. */
function serverFor(args: string[]): Ctx {
  const ctx = {} as Ctx;
  beforeAll(async () => {
    console.log(`kubectl e2e: ${ensureBuilt()}`);
    ctx.server = await startCli(args, { tls: true });
    ctx.box = kubectlSandbox(readFileSync(join(ctx.server.dataDir, 'kubeconfig'), 'utf8'));
  });
  afterAll(async () => {
    await ctx.server?.kill();
    ctx.box?.remove();
  });
  return ctx;
}

describe.skipIf(found.length === 0)('kubectl under --api-domain=k8s.io, every installed version', { timeout: 60_000 }, () => {
  const ctx = serverFor(['--api-domain=k8s.io']);
  const http = (method: string, path: string, body?: unknown, contentType?: string): Promise<Reply> => httpCall({ url: ctx.server.url, ...(ctx.server.tls ? { tls: ctx.server.tls } : {}) }, method, path, { body, contentType });

  describe.each(found)('$label', (k) => {
    const ns = nsOf(k);
    const minor = k.minor;
    /** kubectl in the version's namespace; `kcAny` without a namespace flag (for other namespaces). */
    const kcAny = (...args: string[]): Promise<Run> => ctx.box.run(k.bin, ['--cache-dir', join(ctx.box.dir, `cache-${ns}`), ...args]);
    const kc = (...args: string[]): Promise<Run> => kcAny('-n', ns, ...args);
    const bg = (...args: string[]) => ctx.box.spawn(k.bin, ['--cache-dir', join(ctx.box.dir, `cache-${ns}`), '-n', ns, ...args]);
    const file = (name: string, text: string): string => ctx.box.manifest(`${ns}-${name}.yaml`, text);
    const ok = (r: Run): Run => {
      expect(r.code, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(0);
      return r;
    };
    const apps = (name = ''): string => `/apis/apps/v1/namespaces/${ns}/deployments${name ? `/${name}` : ''}`;
    const core = (resource: string, name = ''): string => `/api/v1/namespaces/${ns}/${resource}${name ? `/${name}` : ''}`;
    /** Plays the deployment controller: writes the status a finished rollout of `replicas` has. */
    const rolledOut = async (name: string, replicas: number, updated = replicas): Promise<void> => {
      const generation = (await http('GET', apps(name))).body.metadata.generation as number;
      const available = updated === replicas ? 'True' : 'False';
      const status = {
        observedGeneration: generation,
        replicas: updated,
        updatedReplicas: updated,
        readyReplicas: updated,
        availableReplicas: updated,
        conditions: [
          { type: 'Available', status: available, reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
          { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: 'ReplicaSet has successfully progressed.' },
        ],
      };
      const r = await http('PATCH', `${apps(name)}/status`, { status }, MERGE);
      expect(r.status, r.text).toBe(200);
    };

    beforeAll(async () => {
      const v = await clientVersion(k.bin);
      console.log(`kubectl e2e: ${k.label} = ${k.bin}, client ${v.gitVersion}, namespace ${ns}`);
      // Generators: kubectl 1.32+ sends these bodies as protobuf.
      expect(ok(await kc('create', 'namespace', ns)).stdout.trim()).toBe(`namespace/${ns} created`);
      const [web, rest] = await Promise.all([
        kc('create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2'),
        kc('create', '-f', file('fixtures', [service('web', ns), pod('solo', ns)].join('---\n'))),
      ]);
      expect(ok(web).stdout.trim()).toBe('deployment.apps/web created');
      expect(ok(rest).stdout.trim().split('\n')).toEqual(['service/web created', 'pod/solo created']);
    });

    describe.concurrent('', () => {
      it('get prints the columns Kubernetes prints, by default and with -o wide', async () => {
        const [deploy, deployWide, svc, svcWide] = await Promise.all([kc('get', 'deploy', 'web'), kc('get', 'deploy', 'web', '-o', 'wide'), kc('get', 'svc', 'web'), kc('get', 'svc', 'web', '-o', 'wide')]);
        expect(ok(deploy).stdout).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\n/);
        expect(deploy.stdout).toMatch(/^web\s+0\/2\s+0\s+0\s+\d+s\n?$/m);
        expect(ok(deployWide).stdout).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\n/);
        expect(deployWide.stdout).toMatch(/^web\s+0\/2\s+0\s+0\s+\d+s\s+nginx\s+nginx:1\.25\s+app=web$/m);
        expect(ok(svc).stdout).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\n/);
        expect(svc.stdout).toMatch(/^web\s+ClusterIP\s+10\.\d+\.\d+\.\d+\s+<none>\s+80\/TCP\s+\d+s$/m);
        expect(ok(svcWide).stdout).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\s+SELECTOR\n/);
        expect(svcWide.stdout).toMatch(/^web\s+ClusterIP\s.*\sapp=web$/m);
      });

      it('get -o yaml|json|name|jsonpath, -A, --show-labels, --sort-by and --chunk-size', async () => {
        const sorted = ['z1', 'm2', 'a3'];
        const docs = sorted.map((n) => configMap(n, ns, { k: n.slice(1) }, { sort: 'yes' }));
        ok(await kc('create', '-f', file('sorted', docs.join('---\n'))));
        const [yaml, json, name, jsonpath, all, labels, sortBy, chunks] = await Promise.all([
          kc('get', 'deploy', 'web', '-o', 'yaml'),
          kc('get', 'deploy', 'web', '-o', 'json'),
          kc('get', 'deploy/web', 'svc/web', 'pod/solo', '-o', 'name'),
          kc('get', 'deploy', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image} {.spec.replicas}'),
          kc('get', 'deploy', '-A'),
          kc('get', 'deploy', 'web', '--show-labels'),
          kc('get', 'cm', '-l', 'sort=yes', '--sort-by=.data.k', '-o', 'name'),
          kc('get', 'cm', '-l', 'sort=yes', '--chunk-size=2', '-o', 'name', '-v=6'),
        ]);
        expect(ok(yaml).stdout).toMatch(/^apiVersion: apps\/v1\nkind: Deployment\n/);
        expect(yaml.stdout).toMatch(/^ {2}name: web$/m);
        expect(yaml.stdout).toMatch(/^ {2}replicas: 2$/m);
        const obj = JSON.parse(ok(json).stdout);
        expect(obj).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: ns }, spec: { replicas: 2 } });
        expect(ok(name).stdout.trim().split('\n')).toEqual(['deployment.apps/web', 'service/web', 'pod/solo']);
        expect(ok(jsonpath).stdout).toBe('nginx:1.25 2');
        expect(ok(all).stdout).toMatch(/^NAMESPACE\s+NAME\s/);
        expect(all.stdout).toMatch(new RegExp(`^${ns}\\s+web\\s`, 'm'));
        expect(ok(labels).stdout).toMatch(/^NAME\s.*\sLABELS\n/);
        expect(labels.stdout).toMatch(/^web\s.*\sapp=web$/m);
        expect(ok(sortBy).stdout.trim().split('\n')).toEqual(sorted.map((n) => `configmap/${n}`));
        expect(ok(chunks).stdout.trim().split('\n')).toEqual(['a3', 'm2', 'z1'].map((n) => `configmap/${n}`));
        const pages = loggedRequests(chunks.stderr).filter((l) => /^GET \S+\/configmaps\?/.test(l));
        expect(pages.length, chunks.stderr).toBe(2);
        expect(pages.every((l) => /limit=2/.test(l))).toBe(true);
        expect(pages.filter((l) => /continue=/.test(l)).length).toBe(1);
      });

      it('get -w prints the list, then what changes', async () => {
        ok(await kc('create', 'configmap', 'w1', '--from-literal=a=1'));
        ok(await kc('label', 'cm', 'w1', 'watched=yes'));
        const names = bg('get', 'cm', '-l', 'watched=yes', '-w', '-o', 'name');
        // The default output: a Table for the list, then one-row Tables from the watch.
        const table = bg('get', 'cm', '-l', 'watched=yes', '-w');
        try {
          // The list part comes first; what comes after can only arrive through the watch.
          await names.until('configmap/w1');
          await table.until(/^NAME\s+DATA\s+AGE\nw1\s+1\s+\d+s\n/);
          const c = await http('POST', core('configmaps'), { metadata: { name: 'w2', labels: { watched: 'yes' } }, data: { a: '1', b: '2' } });
          expect(c.status, c.text).toBe(201);
          await names.until('configmap/w2');
          await table.until(/^w2\s+2\s+\d+s$/m);
          expect([names.running(), table.running()]).toEqual([true, true]);
        } finally {
          names.kill();
          table.kill();
        }
      });

      it('describe deployment, service, namespace and pod', async () => {
        const [d, s, n, p] = await Promise.all([kc('describe', 'deployment', 'web'), kc('describe', 'service', 'web'), kc('describe', 'namespace', ns), kc('describe', 'pod', 'solo')]);
        expect(ok(d).stdout).toMatch(/^Name:\s+web$/m);
        expect(d.stdout).toMatch(new RegExp(`^Namespace:\\s+${ns}$`, 'm'));
        expect(d.stdout).toMatch(/^Selector:\s+app=web$/m);
        expect(d.stdout).toMatch(/^Replicas:\s+2 desired \| 0 updated \| 0 total \| 0 available/m);
        expect(d.stdout).toMatch(/^StrategyType:\s+RollingUpdate$/m);
        expect(d.stdout).toMatch(/^\s+Image:\s+nginx:1\.25$/m);
        expect(ok(s).stdout).toMatch(/^Type:\s+ClusterIP$/m);
        expect(s.stdout).toMatch(/^IP:\s+10\.\d+\.\d+\.\d+$/m);
        expect(s.stdout).toMatch(/^Port:\s+http\s+80\/TCP$/m);
        expect(s.stdout).toMatch(/^TargetPort:\s+8080\/TCP$/m);
        expect(ok(n).stdout).toMatch(new RegExp(`^Name:\\s+${ns}$`, 'm'));
        expect(n.stdout).toMatch(/^Status:\s+Active$/m);
        expect(ok(p).stdout).toMatch(/^Name:\s+solo$/m);
        expect(p.stdout).toMatch(/^Status:\s+Pending$/m);
        expect(p.stdout).toMatch(/^\s+Image:\s+busybox:1\.36$/m);
      });

      it('create from files and from the generators', async () => {
        const crt = join(FIXTURES, 'tls.crt');
        const key = join(FIXTURES, 'tls.key');
        const [cm, generic, tls, registry, fromFile] = await Promise.all([
          kc('create', 'configmap', 'gen', '--from-literal=a=1', `--from-file=cert.pem=${crt}`),
          kc('create', 'secret', 'generic', 'gen', '--from-literal=password=s3cr3t'),
          kc('create', 'secret', 'tls', 'tls', `--cert=${crt}`, `--key=${key}`),
          kc('create', 'secret', 'docker-registry', 'reg', '--docker-server=registry.example.com', '--docker-username=u', '--docker-password=p'),
          kc('create', '-f', file('created', [configMap('from-file', ns, { a: '1' }), deployment('from-file', ns, { replicas: 1 })].join('---\n'))),
        ]);
        expect(ok(cm).stdout.trim()).toBe('configmap/gen created');
        expect(ok(generic).stdout.trim()).toBe('secret/gen created');
        expect(ok(tls).stdout.trim()).toBe('secret/tls created');
        expect(ok(registry).stdout.trim()).toBe('secret/reg created');
        expect(ok(fromFile).stdout.trim().split('\n')).toEqual(['configmap/from-file created', 'deployment.apps/from-file created']);

        const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
        const [gotCm, gotGeneric, gotTls, gotReg, gotWeb, gotFile] = await Promise.all([
          http('GET', core('configmaps', 'gen')),
          http('GET', core('secrets', 'gen')),
          http('GET', core('secrets', 'tls')),
          http('GET', core('secrets', 'reg')),
          http('GET', apps('web')),
          http('GET', apps('from-file')),
        ]);
        expect(gotCm.body.data).toEqual({ a: '1', 'cert.pem': readFileSync(crt, 'utf8') });
        expect(gotGeneric.body).toMatchObject({ type: 'Opaque', data: { password: b64('s3cr3t') } });
        expect(gotTls.body).toMatchObject({ type: 'kubernetes.io/tls', data: { 'tls.crt': b64(readFileSync(crt)), 'tls.key': b64(readFileSync(key)) } });
        expect(gotReg.body.type).toBe('kubernetes.io/dockerconfigjson');
        const dockerConfig = JSON.parse(Buffer.from(gotReg.body.data['.dockerconfigjson'], 'base64').toString('utf8'));
        expect(dockerConfig.auths['registry.example.com']).toMatchObject({ username: 'u', password: 'p', auth: b64('u:p') });
        expect(gotWeb.body.spec).toMatchObject({ replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } });
        expect(gotFile.status).toBe(200);

        const again = await kc('create', 'configmap', 'gen', '--from-literal=a=2');
        expect(again.code).not.toBe(0);
        expect(again.stderr).toContain('configmaps "gen" already exists');
      });

      it('apply, client-side with validation on: the second apply of a change is a strategic merge patch', async () => {
        const first = ok(await kc('apply', '-f', file('applied', deployment('applied', ns, { replicas: 1, env: '1', tier: 'a' }))));
        expect(first.stdout.trim()).toBe('deployment.apps/applied created');
        const second = ok(await kc('apply', '-f', file('applied', deployment('applied', ns, { replicas: 3, env: '2', tier: 'b' })), '-v=6'));
        expect(second.stdout.trim()).toBe('deployment.apps/applied configured');
        const writes = loggedRequests(second.stderr).filter((l) => !l.startsWith('GET '));
        expect(writes.map((l) => l.replace(/\?.*/, ''))).toEqual([`PATCH ${ctx.server.url}${apps('applied')}`]);
        expect(writes[0]).toMatch(/fieldValidation=Strict/);
        const got = (await http('GET', apps('applied'))).body;
        expect(got.spec.replicas).toBe(3);
        expect(got.metadata.labels).toEqual({ tier: 'b' });
        expect(got.spec.template.spec.containers[0].env).toEqual([{ name: 'A', value: '2' }]);
        const lastApplied = JSON.parse(got.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
        expect(lastApplied).toMatchObject({ kind: 'Deployment', spec: { replicas: 3 }, metadata: { labels: { tier: 'b' } } });
        expect(ok(await kc('apply', '-f', file('applied', deployment('applied', ns, { replicas: 3, env: '2', tier: 'b' })))).stdout.trim()).toBe('deployment.apps/applied unchanged');
      });

      it('apply --server-side: a conflict with another field manager, then --force-conflicts', async () => {
        const path = file('ssa', deployment('ssa', ns, { replicas: 1 }));
        expect(ok(await kc('apply', '--server-side', '-f', path)).stdout.trim()).toBe('deployment.apps/ssa serverside-applied');
        ok(await kc('patch', 'deploy', 'ssa', '--type=merge', '-p', '{"spec":{"replicas":5}}'));
        const changed = file('ssa', deployment('ssa', ns, { replicas: 2 }));
        const conflict = await kc('apply', '--server-side', '-f', changed);
        expect(conflict.code).not.toBe(0);
        expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl-patch" using apps/v1: .spec.replicas');
        expect((await http('GET', apps('ssa'))).body.spec.replicas).toBe(5);
        expect(ok(await kc('apply', '--server-side', '--force-conflicts', '-f', changed)).stdout.trim()).toBe('deployment.apps/ssa serverside-applied');
        const got = (await http('GET', apps('ssa'))).body;
        expect(got.spec.replicas).toBe(2);
        const owners = (got.metadata.managedFields as { manager: string; fieldsV1: { 'f:spec'?: Record<string, unknown> } }[]).filter((e) => e.fieldsV1['f:spec']?.['f:replicas']);
        expect(owners.map((e) => e.manager)).toEqual(['kubectl']);
      });

      it('diff, client-side and --server-side: exit 1 with a diff, 0 without, and nothing changes', async () => {
        ok(await kc('apply', '-f', file('cdiff', deployment('cdiff', ns, { replicas: 1 }))));
        ok(await kc('apply', '--server-side', '-f', file('sdiff', deployment('sdiff', ns, { replicas: 1 }))));
        const [cBefore, sBefore] = await Promise.all([http('GET', apps('cdiff')), http('GET', apps('sdiff'))]);
        const [cSame, cChanged, sSame, sChanged] = await Promise.all([
          kc('diff', '-f', file('cdiff-same', deployment('cdiff', ns, { replicas: 1 }))),
          kc('diff', '-f', file('cdiff-changed', deployment('cdiff', ns, { replicas: 4 }))),
          kc('diff', '--server-side', '-f', file('sdiff-same', deployment('sdiff', ns, { replicas: 1 }))),
          kc('diff', '--server-side', '-f', file('sdiff-changed', deployment('sdiff', ns, { replicas: 4 }))),
        ]);
        for (const same of [cSame, sSame]) {
          expect(same.code, same.stderr).toBe(0);
          expect(same.stdout).toBe('');
        }
        for (const changed of [cChanged, sChanged]) {
          expect(changed.code, changed.stderr).toBe(1);
          expect(changed.stdout).toMatch(/^-\s+replicas: 1$/m);
          expect(changed.stdout).toMatch(/^\+\s+replicas: 4$/m);
        }
        const [cAfter, sAfter] = await Promise.all([http('GET', apps('cdiff')), http('GET', apps('sdiff'))]);
        expect(cAfter.body).toEqual(cBefore.body);
        expect(sAfter.body).toEqual(sBefore.body);
      });

      it('patch --type=strategic, merge and json', async () => {
        ok(await kc('create', '-f', file('patched', deployment('patched', ns, { replicas: 1, env: '1' }))));
        // Strategic: containers merge by name, so the env stays.
        const smp = ok(await kc('patch', 'deploy', 'patched', '--type=strategic', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"nginx:1.26"}]}}}}'));
        expect(smp.stdout.trim()).toBe('deployment.apps/patched patched');
        let got = (await http('GET', apps('patched'))).body;
        expect(got.spec.template.spec.containers).toMatchObject([{ name: 'c', image: 'nginx:1.26', env: [{ name: 'A', value: '1' }] }]);
        // Merge: a list is replaced whole, so the env goes.
        ok(await kc('patch', 'deploy', 'patched', '--type=merge', '-p', '{"metadata":{"labels":{"m":"1"}},"spec":{"template":{"spec":{"containers":[{"name":"c","image":"nginx:1.27"}]}}}}'));
        got = (await http('GET', apps('patched'))).body;
        expect(got.metadata.labels).toMatchObject({ m: '1' });
        expect(got.spec.template.spec.containers[0].image).toBe('nginx:1.27');
        expect(got.spec.template.spec.containers[0].env).toBeUndefined();
        ok(await kc('patch', 'deploy', 'patched', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":4},{"op":"remove","path":"/metadata/labels/m"}]'));
        got = (await http('GET', apps('patched'))).body;
        expect(got.spec.replicas).toBe(4);
        expect(got.metadata.labels?.m).toBeUndefined();
      });

      it('label, annotate and scale', async () => {
        ok(await kc('create', 'deployment', 'scaled', '--image=nginx:1.25', '--replicas=1'));
        expect(ok(await kc('label', 'deploy', 'scaled', 'x=y')).stdout.trim()).toBe('deployment.apps/scaled labeled');
        const clash = await kc('label', 'deploy', 'scaled', 'x=z');
        expect(clash.code).not.toBe(0);
        expect(clash.stderr).toContain("'x' already has a value (y), and --overwrite is false");
        ok(await kc('label', 'deploy', 'scaled', 'x=z', '--overwrite'));
        // kubectl 1.27 prints `annotate`, later versions `annotated`.
        expect(ok(await kc('annotate', 'deploy', 'scaled', 'note=hi', 'other=x')).stdout.trim()).toMatch(/^deployment\.apps\/scaled annotated?$/);
        ok(await kc('annotate', 'deploy', 'scaled', 'other-'));
        expect(ok(await kc('scale', 'deploy', 'scaled', '--replicas=3')).stdout.trim()).toBe('deployment.apps/scaled scaled');
        const stale = await kc('scale', 'deploy', 'scaled', '--current-replicas=1', '--replicas=4');
        expect(stale.code).not.toBe(0);
        const got = (await http('GET', apps('scaled'))).body;
        expect(got.metadata.labels).toEqual({ app: 'scaled', x: 'z' });
        expect(got.metadata.annotations).toMatchObject({ note: 'hi' });
        expect(got.metadata.annotations.other).toBeUndefined();
        expect(got.spec.replicas).toBe(3);
      });

      it('rollout status waits for the status a controller writes, then succeeds', async () => {
        ok(await kc('create', '-f', file('roll', deployment('roll', ns, { replicas: 2 }))));
        const rollout = bg('rollout', 'status', 'deployment/roll', '--timeout=40s');
        try {
          await rollout.until('Waiting for deployment spec update to be observed');
          await rolledOut('roll', 2, 1);
          await rollout.until('Waiting for deployment "roll" rollout to finish: 1 out of 2 new replicas have been updated');
          expect(rollout.running()).toBe(true);
          await rolledOut('roll', 2);
          const r = await rollout.done;
          expect(r.code, r.stderr).toBe(0);
          expect(r.stdout).toContain('deployment "roll" successfully rolled out');
        } finally {
          rollout.kill();
        }
      });

      it('delete waits for finalizers and for a namespace’s contents; --wait=false does not', async () => {
        ok(await kc('create', '-f', file('held', configMap('held', ns, {}, {}, ['example.com/hold']))));
        const del = bg('delete', 'cm', 'held', '--wait', '-v=6');
        try {
          await del.until(/DELETE \S+\/configmaps\/held|verb="DELETE"/);
          await del.until(/watch=true/);
          expect(del.running()).toBe(true);
          expect((await http('GET', core('configmaps', 'held'))).body.metadata.deletionTimestamp).toBeDefined();
          expect((await http('PATCH', core('configmaps', 'held'), { metadata: { finalizers: null } }, MERGE)).status).toBe(200);
          const r = await del.done;
          expect(r.code, r.stderr).toBe(0);
          expect(r.stdout).toMatch(/^configmap "held" deleted/);
          expect((await http('GET', core('configmaps', 'held'))).status).toBe(404);
        } finally {
          del.kill();
        }

        ok(await kc('create', '-f', file('held2', configMap('held2', ns, {}, {}, ['example.com/hold']))));
        ok(await kc('delete', 'cm', 'held2', '--wait=false'));
        expect((await http('GET', core('configmaps', 'held2'))).status).toBe(200);
        await http('PATCH', core('configmaps', 'held2'), { metadata: { finalizers: null } }, MERGE);

        const doomed = `${ns}-doomed`;
        ok(await kcAny('create', '-f', file('doomed', [namespace(doomed), configMap('inside', doomed, { x: 'y' }), deployment('inside', doomed, { replicas: 1 })].join('---\n'))));
        const gone = ok(await kcAny('delete', 'ns', doomed));
        expect(gone.stdout).toMatch(new RegExp(`^namespace "${doomed}" deleted`));
        // kubectl returned, so it saw the namespace disappear: gone now, not merely terminating.
        expect((await http('GET', `/api/v1/namespaces/${doomed}`)).status).toBe(404);
        expect((await http('GET', `/api/v1/namespaces/${doomed}/configmaps/inside`)).status).toBe(404);
        expect((await http('GET', `/apis/apps/v1/namespaces/${doomed}/deployments/inside`)).status).toBe(404);
      });

      it('wait --for=condition=Available, --for=jsonpath and --for=delete', async () => {
        ok(await kc('create', '-f', file('waited', deployment('waited', ns, { replicas: 2 }))));
        ok(await kc('create', '-f', file('waited-cm', configMap('waited', ns, {}, {}, ['example.com/hold']))));
        const available = bg('wait', 'deploy/waited', '--for=condition=Available', '--timeout=40s', '-v=6');
        const jsonpath = bg('wait', 'deploy/waited', '--for=jsonpath={.status.readyReplicas}=2', '--timeout=40s', '-v=6');
        const deleted = bg('wait', 'cm/waited', '--for=delete', '--timeout=40s', '-v=6');
        try {
          // Each has read the object and is watching it: what it waits for has not happened yet.
          await Promise.all([available, jsonpath, deleted].map((w) => w.until(/watch=true/)));
          expect([available, jsonpath, deleted].map((w) => w.running())).toEqual([true, true, true]);
          ok(await kc('delete', 'cm', 'waited', '--wait=false'));
          await rolledOut('waited', 2);
          await http('PATCH', core('configmaps', 'waited'), { metadata: { finalizers: null } }, MERGE);
          const [a, j, d] = await Promise.all([available.done, jsonpath.done, deleted.done]);
          for (const r of [a, j]) {
            expect(r.code, r.stderr).toBe(0);
            expect(r.stdout.trim()).toBe('deployment.apps/waited condition met');
          }
          expect(d.code, d.stderr).toBe(0);
          expect(d.stdout.trim()).toBe('configmap/waited condition met');
        } finally {
          for (const w of [available, jsonpath, deleted]) w.kill();
        }
      });

      // Defined only for the versions that have these forms of wait.
      if (minor >= 28)
        it('wait --for=jsonpath without a value (1.28+): the field exists', async () => {
          const r = await kc('wait', 'deploy/web', '--for=jsonpath={.spec.template.spec.containers[0].image}', '--timeout=40s');
          expect(r.code, r.stderr).toBe(0);
          expect(r.stdout.trim()).toBe('deployment.apps/web condition met');
        });

      if (minor >= 31)
        it('wait --for=create (1.31+) waits for the object to appear', async () => {
          const born = bg('wait', 'cm/born', '--for=create', '--timeout=40s', '-v=6');
          try {
            // It has looked for the object and not found it yet.
            await born.until(/\/configmaps\/born 404|\/configmaps\/born" status="404/);
            expect(born.running()).toBe(true);
            expect((await http('POST', core('configmaps'), { metadata: { name: 'born' } })).status).toBe(201);
            const c = await born.done;
            expect(c.code, c.stderr).toBe(0);
            expect(c.stdout.trim()).toBe('configmap/born condition met');
          } finally {
            born.kill();
          }
        });

      it('api-resources and explain', async () => {
        const [resources, apps1, strategy, recursive] = await Promise.all([
          kc('api-resources'),
          kc('api-resources', '--api-group=apps', '-o', 'name'),
          kc('explain', 'deployment.spec.strategy'),
          kc('explain', 'deployment.spec.strategy', '--recursive'),
        ]);
        expect(ok(resources).stdout).toMatch(/^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND$/m);
        expect(resources.stdout).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
        expect(resources.stdout).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
        expect(resources.stdout).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
        const served = (await http('GET', '/apis/apps/v1')).body.resources as { name: string }[];
        const appsNames = served.filter((r) => !r.name.includes('/')).map((r) => `${r.name}.apps`);
        expect(appsNames).toContain('deployments.apps');
        expect(ok(apps1).stdout.trim().split('\n').sort()).toEqual(appsNames.sort());

        // The docs are the server's own: read them from its OpenAPI document.
        const doc = (await http('GET', '/openapi/v3/apis/apps/v1')).body.components.schemas;
        const strategyDoc = doc['io.k8s.api.apps.v1.DeploymentSpec'].properties.strategy.description as string;
        const typeDoc = doc['io.k8s.api.apps.v1.DeploymentStrategy'].properties.type.description as string;
        expect(ok(strategy).stdout).toMatch(/KIND:\s+Deployment/);
        expect(strategy.stdout).toMatch(/VERSION:\s+apps\/v1|VERSION:\s+v1/);
        expect(strategy.stdout).toMatch(/FIELD:\s+strategy\s+<(DeploymentStrategy|Object)>/);
        expect(strategy.stdout).toContain(strategyDoc);
        expect(strategy.stdout).toContain(typeDoc);
        expect(strategy.stdout).toMatch(/^\s+rollingUpdate\s+<(RollingUpdateDeployment|Object)>$/m);
        expect(ok(recursive).stdout).toMatch(/^\s+rollingUpdate\s+<(RollingUpdateDeployment|Object)>$/m);
        expect(recursive.stdout).toMatch(/^\s{4,}maxSurge\s+<(IntOrString|string)>$/m);
        expect(recursive.stdout).toMatch(/^\s{4,}maxUnavailable\s+<(IntOrString|string)>$/m);
        expect(recursive.stdout).toMatch(/^\s+type\s+<string>$/m);
      });
    });
  });
});

const picks = kubectlPicks();

describe.skipIf(picks.length === 0)('kubectl under the default orch.io domain: the flows through discovery', { timeout: 60_000 }, () => {
  const ctx = serverFor([]);

  describe.each(picks)('$label', (k) => {
    const ns = `o${nsOf(k)}`;
    const kc = (...args: string[]): Promise<Run> => ctx.box.run(k.bin, ['--cache-dir', join(ctx.box.dir, `cache-${ns}`), ...args]);
    const ok = (r: Run): Run => {
      expect(r.code, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(0);
      return r;
    };

    it('api-resources, then create, get, apply and delete a ConfigMap and a Deployment', async () => {
      const resources = ok(await kc('api-resources'));
      expect(resources.stdout).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
      expect(resources.stdout).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);

      const objects = (replicas: number, a: string): string => [namespace(ns), configMap('cfg', ns, { a }), deployment('web', ns, { replicas })].join('---\n');
      const path = ctx.box.manifest(`${ns}.yaml`, objects(1, '1'));
      expect(ok(await kc('create', '-f', path)).stdout.trim().split('\n')).toEqual([`namespace/${ns} created`, 'configmap/cfg created', 'deployment.apps/web created']);
      // Through the kubeconfig the server wrote and through flags alone (--server and the files in DATA/pki).
      const [viaConfig, viaFlag] = await Promise.all([
        kc('get', 'cm,deploy', '-n', ns, '-o', 'name'),
        runKubectl(k.bin, [`--server=${ctx.server.url}`, ...pkiFlags(ctx.server.dataDir), '--cache-dir', join(ctx.box.dir, `cache-${ns}-flag`), 'get', 'cm,deploy', '-n', ns, '-o', 'name'], {
          env: { ...ctx.box.env, KUBECONFIG: join(ctx.box.dir, 'no-such-kubeconfig') },
        }),
      ]);
      for (const r of [viaConfig, viaFlag]) expect(ok(r).stdout.trim().split('\n')).toEqual(expect.arrayContaining(['configmap/cfg', 'deployment.apps/web']));

      ctx.box.manifest(`${ns}.yaml`, objects(3, '2'));
      const applied = ok(await kc('apply', '-f', path));
      expect(applied.stdout).toContain('configmap/cfg configured');
      expect(applied.stdout).toContain('deployment.apps/web configured');
      const got = ok(await kc('get', 'deploy', 'web', '-n', ns, '-o', 'jsonpath={.spec.replicas}'));
      expect(got.stdout).toBe('3');
      expect(ok(await kc('get', 'cm', 'cfg', '-n', ns, '-o', 'jsonpath={.data.a}')).stdout).toBe('2');

      const deleted = ok(await kc('delete', 'deploy/web', 'cm/cfg', '-n', ns));
      expect(deleted.stdout).toMatch(/deployment.apps "web" deleted/);
      expect(deleted.stdout).toMatch(/configmap "cfg" deleted/);
      const after = await kc('get', 'deploy', 'web', '-n', ns);
      expect(after.code).not.toBe(0);
      expect(after.stderr).toContain('NotFound');
    });
  });
});
