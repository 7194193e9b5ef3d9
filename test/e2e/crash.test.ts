/**
 * Durability under a crash: concurrent clients create ConfigMaps against the real CLI on a SQLite data
 * directory, the process is SIGKILLed mid-stream, and a restart on the same directory must hold every
 * create that was answered 201 (same uid), with resourceVersions still increasing. Several rounds.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall } from '../helpers/server.js';
import { ensureBuilt, startCli, tempDir, type CliServer } from './helpers/cli.js';

const LOOPS = 16;
const ROUNDS = 3;
/** Acknowledged creates to wait for before the kill, so every round crashes mid-stream. */
const ACKED_BEFORE_KILL = 150;
const NS = 'default';

interface Acked {
  uid: string;
  rv: bigint;
  round: number;
}

describe('crash: SIGKILL during concurrent creates loses no acknowledged write', () => {
  const dataDir = tempDir('orch-crash-');
  let server: CliServer | undefined;

  beforeAll(() => {
    console.log(`crash e2e: ${ensureBuilt()}`);
  });
  afterAll(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${ROUNDS} rounds of ${LOOPS} concurrent create loops, killed mid-stream`, async () => {
    const acked = new Map<string, Acked>();
    let highestRv = 0n;
    let unanswered = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      server = await startCli([], { dataDir });
      const s = server;

      // Everything acknowledged in earlier rounds survived the kill, unchanged.
      const list = await httpCall(s.url, 'GET', `/api/v1/namespaces/${NS}/configmaps`);
      expect(list.status).toBe(200);
      const present = new Map<string, string>(list.body.items.map((i: any) => [i.metadata.name, i.metadata.uid]));
      const lost = [...acked].filter(([name, a]) => present.get(name) !== a.uid).map(([name]) => name);
      expect(lost, `acknowledged creates missing or changed after restart ${round - 1}`).toEqual([]);
      expect(BigInt(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(highestRv);

      let stopped = false;
      let killed = false;
      let roundAcks = 0;
      const failures: string[] = [];
      const previousHighest = highestRv;
      let onEnough!: () => void;
      const enough = new Promise<void>((r) => (onEnough = r));
      const loop = async (id: number): Promise<void> => {
        for (let i = 0; !stopped; i++) {
          const name = `r${round}-l${id}-${i}`;
          let reply;
          try {
            reply = await httpCall(s.url, 'POST', `/api/v1/namespaces/${NS}/configmaps`, { body: { metadata: { name }, data: { round: String(round), i: String(i) } } });
          } catch {
            // The connection died with the process: this create may or may not have been stored.
            unanswered++;
            return;
          }
          if (reply.status !== 201) {
            failures.push(`${name}: ${reply.status} ${reply.text}`);
            stopped = true;
            onEnough();
            return;
          }
          const rv = BigInt(reply.body.metadata.resourceVersion);
          // Resource versions keep rising across restarts: nothing new is numbered at or below an old write.
          if (rv <= previousHighest) failures.push(`${name} got resourceVersion ${rv}, not above ${previousHighest} of an earlier run`);
          acked.set(name, { uid: reply.body.metadata.uid, rv, round });
          if (rv > highestRv) highestRv = rv;
          if (++roundAcks >= ACKED_BEFORE_KILL) onEnough();
          if (killed) stopped = true;
        }
      };
      const loops = Array.from({ length: LOOPS }, (_, id) => loop(id));
      await enough;
      // Kill while the loops still have requests in flight.
      killed = true;
      await s.kill();
      stopped = true;
      await Promise.all(loops);
      expect(failures).toEqual([]);
      expect(s.child.signalCode).toBe('SIGKILL');
      console.log(`crash round ${round}: ${roundAcks} creates acknowledged, ${unanswered} cut off by the kill so far, ${acked.size} acknowledged in all`);
    }
    // The kills landed while requests were in flight (else this test would prove little).
    expect(unanswered).toBeGreaterThan(0);

    // A last restart checks the final round, and that a new write is numbered above every acknowledged one.
    server = await startCli([], { dataDir });
    const list = await httpCall(server.url, 'GET', `/api/v1/namespaces/${NS}/configmaps`);
    const present = new Map<string, string>(list.body.items.map((i: any) => [i.metadata.name, i.metadata.uid]));
    const lost = [...acked].filter(([name, a]) => present.get(name) !== a.uid).map(([name]) => name);
    expect(lost).toEqual([]);
    for (const [name, a] of acked) {
      expect(BigInt(list.body.items.find((i: any) => i.metadata.name === name).metadata.resourceVersion)).toBe(a.rv);
    }
    const after = await httpCall(server.url, 'POST', `/api/v1/namespaces/${NS}/configmaps`, { body: { metadata: { name: 'after-the-crashes' } } });
    expect(after.status).toBe(201);
    expect(BigInt(after.body.metadata.resourceVersion)).toBeGreaterThan(highestRv);
    await server.stop();
  });
});
