/**
 * The controller manager's flags on the command line: an unknown controller, half a signing pair or
 * inconsistent leader-election durations stop the start with exit code 2 and kube-controller-manager's
 * words, before anything is opened.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from './helpers/cli.js';

beforeAll(() => {
  console.log(`cli controllers: ${ensureBuilt()}`);
}, 180_000);

describe('orch-apiserver controller flags', () => {
  it.each([
    [['--controllers=*,-nope,csrsigning'], '--controllers: "nope" is not in the list of known controllers'],
    [['--controllers=bogus'], '--controllers: "bogus" is not in the list of known controllers'],
    [['--leader-elect-lease-duration=5s', '--leader-elect-renew-deadline=10s'], 'leaseDuration must be greater than renewDeadline'],
    [['--leader-elect-retry-period=9s'], 'renewDeadline must be greater than retryPeriod*JitterFactor'],
    [['--leader-elect=maybe'], 'invalid argument "maybe" for "--leader-elect" flag: use true or false'],
    [['--cluster-signing-cert-file=/nonexistent/ca.crt'], '--cluster-signing-cert-file and --cluster-signing-key-file must be given together'],
    [['--cluster-signing-duration=soon'], '--cluster-signing-duration: invalid duration "soon"'],
  ])('%j is refused', async (args, message) => {
    const r = await runCli(['--storage-backend=memory', '--secure-port=0', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
