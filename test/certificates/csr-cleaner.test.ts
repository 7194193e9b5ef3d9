/**
 * The cleaner on Kubernetes' schedule, seen over HTTP: a request denied over an hour ago is deleted
 * when the cleaner runs (at start, then hourly); one denied a moment ago stays.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeCertificateRequest } from '../helpers/csr.js';
import { startTestServer } from '../helpers/server.js';
import { CSRS, csrBody } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'orch-csr-cleaner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const secondsAgo = (s: number): string => `${new Date(Date.now() - s * 1000).toISOString().slice(0, 19)}Z`;

describe('csrcleaner', () => {
  it('deletes a request denied over an hour ago and keeps a fresh one', async () => {
    const first = await startTestServer({ dataDir: dir, tls: true });
    try {
      for (const [name, age] of [['old-denial', 2 * 3600], ['new-denial', 60]] as const) {
        const { request } = makeCertificateRequest({ commonName: name });
        const made = await first.post(CSRS, csrBody(name, request, 'example.com/signer', ['client auth']));
        expect(made.status).toBe(201);
        const csr = made.body;
        csr.status = { conditions: [{ type: 'Denied', status: 'True', reason: 'Test', message: 'no', lastUpdateTime: secondsAgo(age) }] };
        expect((await first.put(`${CSRS}/${name}/approval`, csr)).status).toBe(200);
      }
    } finally {
      await first.close();
    }
    // The cleaner's first pass runs when the controllers start.
    const second = await startTestServer({ dataDir: dir, tls: true });
    try {
      for (let i = 0; i < 400 && (await second.get(`${CSRS}/old-denial`)).status !== 404; i++) await new Promise((r) => setTimeout(r, 25));
      expect((await second.get(`${CSRS}/old-denial`)).status).toBe(404);
      expect((await second.get(`${CSRS}/new-denial`)).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
