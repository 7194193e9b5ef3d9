/**
 * The server concurrency limit (SCL, `--max-requests-inflight` + `--max-mutating-requests-inflight`)
 * shared among the Limited priority levels by their assured concurrency shares (document 2):
 * `ACV(l) = ceil(SCL * ACS(l) / sum over k of ACS(k))`. Exempt levels take no part. Pure.
 */
export function assuredConcurrencyValue(serverConcurrencyLimit: number, shares: number, shareSum: number): number {
  if (shareSum <= 0) return serverConcurrencyLimit;
  return Math.ceil((serverConcurrencyLimit * shares) / shareSum);
}

/** Every Limited level's ACV, by name, from its shares. */
export function assuredConcurrencyValues(serverConcurrencyLimit: number, sharesByLevel: ReadonlyMap<string, number>): Map<string, number> {
  let sum = 0;
  for (const s of sharesByLevel.values()) sum += s;
  const out = new Map<string, number>();
  for (const [name, s] of sharesByLevel) out.set(name, assuredConcurrencyValue(serverConcurrencyLimit, s, sum));
  return out;
}
