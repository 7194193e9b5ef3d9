/**
 * Jobs and cron jobs through a real kubectl under `--api-domain=k8s.io`: `create job`, `create
 * cronjob`, `create job --from=cronjob/...`, and `get` by short name and the `all` category.
 * Skips, saying why, when kubectl is not installed.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBECTL, kubectlRuns, withKubectlServer } from '../../helpers/kubectl.js';

const available = await kubectlRuns(DEFAULT_KUBECTL);

describe.skipIf(!available)('kubectl with jobs and cron jobs (k8s.io)', () => {
  const { kubectl } = withKubectlServer('kubectl-batch-', { apiDomain: 'k8s.io' });

  it('creates a job and a cron job, and a job from the cron job', async () => {
    const job = await kubectl('create', 'job', 'pi', '--image=perl:5.34', '--', 'perl', '-e', 'print 1');
    expect(job.code, job.stderr).toBe(0);
    expect(job.stdout).toContain('job.batch/pi created');
    const cron = await kubectl('create', 'cronjob', 'hello', '--image=busybox:1.36', '--schedule=*/5 * * * *', '--', 'echo', 'hi');
    expect(cron.code, cron.stderr).toBe(0);
    expect(cron.stdout).toContain('cronjob.batch/hello created');
    const fromCron = await kubectl('create', 'job', 'manual-run', '--from=cronjob/hello');
    expect(fromCron.code, fromCron.stderr).toBe(0);

    const got = await kubectl('get', 'job', 'pi', '-o', 'jsonpath={.spec.completions} {.spec.backoffLimit} {.spec.template.spec.restartPolicy} {.metadata.labels.job-name}');
    expect(got.stdout).toBe('1 6 Never pi');
    const owned = await kubectl('get', 'job', 'manual-run', '-o', 'jsonpath={.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}');
    expect(owned.stdout).toBe('CronJob/hello');

    const cj = await kubectl('get', 'cj');
    expect(cj.code, cj.stderr).toBe(0);
    expect(cj.stdout).toMatch(/^NAME\s+SCHEDULE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE\n/);
    expect(cj.stdout).toMatch(/\nhello\s+\*\/5 \* \* \* \*\s+False\s+0\s+<none>\s+\d+s\n/);
    const all = await kubectl('get', 'all', '-o', 'name');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.split('\n')).toEqual(expect.arrayContaining(['job.batch/pi', 'job.batch/manual-run', 'cronjob.batch/hello']));
  });

  it('refuses a bad schedule with the parser\'s message', async () => {
    const bad = await kubectl('create', 'cronjob', 'broken', '--image=busybox:1.36', '--schedule=* * *');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('expected exactly 5 fields, found 3: [* * *]');
  });
});
