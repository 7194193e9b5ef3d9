/**
 * The generator is a pure function of its seed (so a failure is replayed from the seed it prints),
 * and a few thousand requests reach every verb, body type, patch type and subresource it claims.
 */
import { describe, expect, it } from 'vitest';
import { generateRequest } from './generate.js';
import { Random } from './random.js';
import type { FuzzRequest } from './request.js';

const take = (seed: number, n: number): FuzzRequest[] => {
  const r = new Random(seed);
  return Array.from({ length: n }, () => generateRequest(r));
};

describe('the fuzz request generator', () => {
  it('gives the same requests for the same seed, and others for another', () => {
    const a = take(7, 300);
    const b = take(7, 300);
    expect(b.map((q) => q.note)).toEqual(a.map((q) => q.note));
    expect(b.map((q) => q.target)).toEqual(a.map((q) => q.target));
    expect(b.map((q) => q.headers)).toEqual(a.map((q) => q.headers));
    expect(b.map((q) => q.body?.toString('base64'))).toEqual(a.map((q) => q.body?.toString('base64')));
    expect(take(8, 300).map((q) => q.target)).not.toEqual(a.map((q) => q.target));
  });

  it('covers every verb, body type, patch type and subresource', () => {
    const reqs = take(1825, 3000);
    const notes = reqs.map((q) => q.note).join('\n');
    for (const verb of ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']) expect(notes).toContain(`${verb} `);
    for (const sub of ['/status', '/scale', '/finalize', '/approval']) expect(notes).toContain(sub);
    const types = new Set(reqs.flatMap((q) => q.headers.filter(([k]) => k === 'Content-Type').map(([, v]) => v)));
    for (const t of ['application/json', 'application/yaml', 'application/vnd.orch.protobuf', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']) {
      expect(types).toContain(t);
    }
    for (const damage of ['truncated', 'recursive alias', 'deep', 'unknown field', 'dot segment', 'odd percent escape', 'absolute form', 'repeated', 'odd headers']) expect(notes).toContain(damage);
    // Valid writes are a good part of the mix, so that stored state grows.
    expect(reqs.filter((q) => /^create [a-z]+; (json|yaml|protobuf)$/.test(q.note)).length).toBeGreaterThan(200);
  });
});
