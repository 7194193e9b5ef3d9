/**
 * A real, single-member etcd for tests: started on free loopback ports with a temporary data
 * directory, ready once /health answers, killed on close. One process serves many tests; each test
 * takes a key prefix of its own (`uniquePrefix`). `startEtcdCluster` starts a cluster of several
 * members the same way, for failure tests (kill the leader, watch the election).
 *
 * `etcdBinary()` finds the binary ($ETCD_BIN, else PATH, then /usr/bin/etcd); tests skip with the
 * printed reason when it is absent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface TestEtcd {
  /** Client URL, e.g. http://127.0.0.1:41234. */
  endpoint: string;
  /** Stops etcd and starts it again on the same ports and data. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export function etcdBinary(): string | undefined {
  // An explicit ETCD_BIN is the only candidate (ETCD_BIN=none skips the etcd tests).
  const explicit = process.env.ETCD_BIN;
  const candidates = explicit ? [explicit] : [...(process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'etcd')), '/usr/bin/etcd'];
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Why etcd tests skip, or undefined when they can run; printed once by the caller. */
export function etcdSkipReason(): string | undefined {
  return etcdBinary() ? undefined : 'etcd binary not found (install etcd-server, or set ETCD_BIN); skipping etcd tests';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function healthy(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
    const body = (await res.json()) as { health?: string };
    return body.health === 'true';
  } catch {
    return false;
  }
}

let counter = 0;
/** A key prefix no other test in this process uses. */
export function uniquePrefix(label = 't'): string {
  return `/orch-test-${process.pid}-${label}-${counter++}`;
}

export async function startEtcd(): Promise<TestEtcd> {
  const bin = etcdBinary();
  if (!bin) throw new Error('etcd binary not found');
  // tmpfs when there is one: etcd fsyncs every write.
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const dir = mkdtempSync(join(base, 'orch-etcd-'));
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const [clientPort, peerPort] = [await freePort(), await freePort()];
    const endpoint = `http://127.0.0.1:${clientPort}`;
    const peer = `http://127.0.0.1:${peerPort}`;
    const args = [
      '--name=test',
      `--data-dir=${join(dir, `data-${attempt}`)}`,
      `--listen-client-urls=${endpoint}`,
      `--advertise-client-urls=${endpoint}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=test=${peer}`,
      '--logger=zap',
      '--log-level=error',
    ];
    let proc = await launch(bin, args, endpoint);
    if (typeof proc === 'string') {
      // A port taken between choosing and binding, or a slow start: try again on other ports.
      lastError = proc;
      continue;
    }
    return {
      endpoint,
      async restart() {
        await (proc as Running).stop();
        const again = await launch(bin, args, endpoint);
        if (typeof again === 'string') throw new Error(`etcd did not come back: ${again}`);
        proc = again;
      },
      async close() {
        await (proc as Running).stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error(`etcd did not become healthy: ${lastError}`);
}

interface Running {
  stop(): Promise<void>;
  /** SIGKILL, as a crash: no clean shutdown, no leadership transfer. */
  kill(): Promise<void>;
}

/** Starts etcd and waits until it is healthy; the error output when it is not. */
async function launch(bin: string, args: string[], endpoint: string): Promise<Running | string> {
  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    if (!exited) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exit;
    clearTimeout(timer);
  };
  const kill = async (): Promise<void> => {
    process.off('exit', killOnExit);
    if (!exited) child.kill('SIGKILL');
    await exit;
  };
  const deadline = Date.now() + 20_000;
  while (!exited && Date.now() < deadline) {
    if (await healthy(endpoint)) return { stop, kill };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  return stderr || 'no output';
}

export interface EtcdMember {
  name: string;
  /** Client URL. */
  endpoint: string;
  /** Whether its process runs (it may still be electing a leader). */
  readonly running: boolean;
  /** SIGKILL: a crash, without leadership transfer. */
  kill(): Promise<void>;
  /** Starts a stopped member again on the same ports and data; resolves once it is healthy. */
  start(): Promise<void>;
}

export interface TestEtcdCluster {
  /** Every member's client URL, in member order. */
  endpoints: string[];
  members: EtcdMember[];
  /**
   * The member that running members agree is the leader, or undefined while there is none (an
   * election, or no quorum). Asks each running member for its status.
   */
  leader(): Promise<EtcdMember | undefined>;
  close(): Promise<void>;
}

interface MemberStatus {
  memberId: string;
  leader: string;
}

/** A member's own ID and the leader it knows (its v3 JSON gateway); undefined when it does not answer. */
async function memberStatus(endpoint: string): Promise<MemberStatus | undefined> {
  try {
    const res = await fetch(`${endpoint}/v3/maintenance/status`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(500) });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { header?: { member_id?: string }; leader?: string };
    if (!body.header?.member_id) return undefined;
    return { memberId: body.header.member_id, leader: body.leader ?? '0' };
  } catch {
    return undefined;
  }
}

/**
 * A cluster of `size` members on free loopback ports (default election settings: 100 ms heartbeat,
 * 1 s election timeout), each with its own data directory; resolves once every member is healthy,
 * which implies a leader.
 */
export async function startEtcdCluster(size = 3): Promise<TestEtcdCluster> {
  const bin = etcdBinary();
  if (!bin) throw new Error('etcd binary not found');
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const dir = mkdtempSync(join(base, 'orch-etcd-cluster-'));
  const ports: { client: string; peer: string }[] = [];
  for (let i = 0; i < size; i++) ports.push({ client: `http://127.0.0.1:${await freePort()}`, peer: `http://127.0.0.1:${await freePort()}` });
  const names = ports.map((_, i) => `m${i}`);
  const initialCluster = ports.map((p, i) => `${names[i]}=${p.peer}`).join(',');
  const token = `orch-test-${process.pid}-${counter++}`;
  const argsOf = (i: number): string[] => {
    const p = ports[i] as { client: string; peer: string };
    return [
      `--name=${names[i]}`,
      `--data-dir=${join(dir, names[i] as string)}`,
      `--listen-client-urls=${p.client}`,
      `--advertise-client-urls=${p.client}`,
      `--listen-peer-urls=${p.peer}`,
      `--initial-advertise-peer-urls=${p.peer}`,
      `--initial-cluster=${initialCluster}`,
      `--initial-cluster-token=${token}`,
      '--initial-cluster-state=new',
      '--logger=zap',
      '--log-level=error',
    ];
  };
  const running: (Running | undefined)[] = new Array(size).fill(undefined);
  const launchMember = async (i: number): Promise<void> => {
    const r = await launch(bin, argsOf(i), (ports[i] as { client: string }).client);
    if (typeof r === 'string') throw new Error(`etcd member ${names[i]} did not become healthy: ${r}`);
    running[i] = r;
  };
  // Members wait for a quorum of peers to become healthy: start them together.
  const started = await Promise.allSettled(ports.map((_, i) => launchMember(i)));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(running.map((r) => r?.kill()));
    rmSync(dir, { recursive: true, force: true });
    throw (failed as PromiseRejectedResult).reason;
  }
  const members: EtcdMember[] = ports.map((p, i) => ({
    name: names[i] as string,
    endpoint: p.client,
    get running() {
      return running[i] !== undefined;
    },
    async kill() {
      const r = running[i];
      running[i] = undefined;
      await r?.kill();
    },
    async start() {
      if (running[i]) return;
      await launchMember(i);
    },
  }));
  return {
    endpoints: ports.map((p) => p.client),
    members,
    async leader() {
      const statuses = await Promise.all(members.map((m) => (m.running ? memberStatus(m.endpoint) : undefined)));
      const leaderId = statuses.find((st) => st && st.leader !== '0')?.leader;
      if (!leaderId) return undefined;
      // A member that lost its peers may still name the old leader: only a running leader that knows itself counts.
      const i = statuses.findIndex((st) => st?.memberId === leaderId && st.leader === leaderId);
      return i >= 0 ? members[i] : undefined;
    },
    async close() {
      await Promise.all(running.map((r) => r?.stop()));
      running.fill(undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
