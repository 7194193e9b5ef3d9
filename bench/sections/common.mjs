/** Pieces the sections share. */
import { expectStatus } from '../lib/load.mjs';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function createNamespace(url, name) {
  await expectStatus(url, { method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) }, 201);
}

/** Response headers worth replaying from the baseline: all but the per-connection and per-response ones. */
export function replayableHeaders(headers) {
  const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'audit-id']);
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !skip.has(k.toLowerCase())));
}

/** Runs `a` then `b` on even rounds and `b` then `a` on odd ones, so neither always goes first. */
export async function alternate(round, a, b) {
  if (round % 2 === 0) return [await a(), await b()];
  const rb = await b();
  return [await a(), rb];
}
