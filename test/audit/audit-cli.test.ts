/**
 * The --audit-* flags of the command: usage errors exit 2 with kube-apiserver's words, a policy or
 * webhook file that cannot be used stops the start (exit 1), and the flags reach the running server:
 * the log file rotates at --audit-log-maxsize keeping --audit-log-maxbackup backups, and `-` with
 * the legacy format writes one text line per event to standard output.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, startCli, tempDir, type CliServer } from '../e2e/helpers/cli.js';

const cleanup: string[] = [];
const servers: CliServer[] = [];
// Building dist/ may take a while on a loaded machine (npm test builds before the suites run).
beforeAll(() => {
  console.log(`audit cli e2e: ${ensureBuilt()}`);
}, 240_000);
afterAll(async () => {
  for (const s of servers) await s.stop();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

function dir(): string {
  const d = tempDir('orch-audit-cli-');
  cleanup.push(d);
  return d;
}

const POLICY = `apiVersion: audit.orch.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["*"]
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
`;

describe('usage errors', () => {
  it.each([
    [['--audit-log-path=a.log', '--audit-log-mode=fast'], /invalid audit log mode fast, allowed modes are "batch,blocking,blocking-strict"/],
    [['--audit-log-path=a.log', '--audit-log-format=xml'], /invalid audit log format xml, allowed formats are "legacy,json"/],
    [['--audit-log-path=a.log', '--audit-log-maxage=-1'], /--audit-log-maxage -1 can't be a negative number/],
    [['--audit-webhook-config-file=w.yaml', '--audit-webhook-batch-max-size=ten'], /invalid argument "ten" for "--audit-webhook-batch-max-size" flag/],
    [['--audit-log-version=audit.k8s.io/v1'], /invalid group version, allowed versions are \["audit.orch.io\/v1"\]/],
  ])('%j exits 2 with a message on stderr', async (args, message) => {
    const r = await runCli(['--secure-port', '0', '--bind-address', '127.0.0.1', '--data-dir', dir(), ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('a policy the server cannot use stops the start, naming the file and the problem', async () => {
    const d = dir();
    writeFileSync(join(d, 'policy.yaml'), 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Everything\n');
    const r = await runCli(['--secure-port', '0', '--bind-address', '127.0.0.1', '--data-dir', d, `--audit-policy-file=${join(d, 'policy.yaml')}`, `--audit-log-path=${join(d, 'a.log')}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot start: loading audit policy file: rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse": from file ${join(d, 'policy.yaml')}`);
  });

  it('a webhook kubeconfig that cannot be read stops the start', async () => {
    const d = dir();
    writeFileSync(join(d, 'policy.yaml'), POLICY);
    const r = await runCli(['--secure-port', '0', '--bind-address', '127.0.0.1', '--data-dir', d, `--audit-policy-file=${join(d, 'policy.yaml')}`, '--audit-webhook-config-file=/nonexistent/hook.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot start: initializing audit webhook: --audit-webhook-config-file \/nonexistent\/hook.yaml: .*ENOENT/);
  });
});

describe('the flags reach the server', () => {
  it('rotates the log at --audit-log-maxsize and keeps --audit-log-maxbackup backups, each line a whole event', async () => {
    const d = dir();
    const logs = join(d, 'logs');
    writeFileSync(join(d, 'policy.yaml'), POLICY);
    const cli = await startCli([`--audit-policy-file=${join(d, 'policy.yaml')}`, `--audit-log-path=${join(logs, 'audit.log')}`, '--audit-log-maxsize=1', '--audit-log-maxbackup=2']);
    servers.push(cli);
    // Each create logs its 300 kB request and response: a megabyte holds one such event, not two.
    const big = 'x'.repeat(300 * 1024);
    let lastId = '';
    for (let i = 0; i < 6; i++) {
      const r = await fetch(`${cli.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: `big-${i}` }, data: { big } }) });
      expect(r.status).toBe(201);
      lastId = r.headers.get('audit-id') ?? '';
    }
    await cli.stop();
    const files = readdirSync(logs).sort();
    expect(files).toHaveLength(3);
    expect(files.filter((f) => /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/.test(f))).toHaveLength(2);
    for (const f of files) {
      expect(statSync(join(logs, f)).size).toBeLessThanOrEqual(1024 * 1024);
      for (const line of readFileSync(join(logs, f), 'utf8').split('\n').filter(Boolean)) expect(JSON.parse(line)).toMatchObject({ kind: 'Event' });
    }
    const current = readFileSync(join(logs, 'audit.log'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { auditID: string; stage: string; requestObject?: { data: { big: string } } });
    const last = current.find((e) => e.auditID === lastId && e.stage === 'ResponseComplete');
    expect(last?.requestObject?.data.big).toHaveLength(300 * 1024);
  });

  it('--audit-log-path=- with --audit-log-format=legacy writes text lines to standard output', async () => {
    const d = dir();
    writeFileSync(join(d, 'policy.yaml'), POLICY);
    const cli = await startCli([`--audit-policy-file=${join(d, 'policy.yaml')}`, '--audit-log-path=-', '--audit-log-format=legacy']);
    servers.push(cli);
    const r = await fetch(`${cli.url}/api/v1/namespaces/default/configmaps?limit=1`, { headers: { 'Audit-ID': 'legacy-line-1', 'User-Agent': 'audit-test' } });
    expect(r.status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!cli.stdout().includes('id="legacy-line-1" stage="ResponseComplete"') && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    expect(cli.stdout()).toMatch(
      /\d{4}-\d\d-\d\dT[\d:.]+Z AUDIT: id="legacy-line-1" stage="ResponseComplete" ip="127\.0\.0\.1" method="list" user="system:unsecured" groups="\\"system:masters\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="audit-test" namespace="default" uri="\/api\/v1\/namespaces\/default\/configmaps\?limit=1" response="200"\n/,
    );
  });
});
