/**
 * /healthz, /livez and /readyz: named checks, `?verbose` for the per-check lines, `?exclude=name`,
 * and `/readyz/{check}` for one check, in the text format Kubernetes' probes and people read.
 */
export interface HealthCheck {
  name: string;
  /** Resolves when healthy; rejects (or returns a reason) when not. */
  check(): Promise<void>;
}

export interface HealthResult {
  code: number;
  body: string;
}

export async function runHealthChecks(kind: 'healthz' | 'livez' | 'readyz', checks: readonly HealthCheck[], url: URL, only?: string): Promise<HealthResult | undefined> {
  const excluded = new Set(url.searchParams.getAll('exclude'));
  const selected = only ? checks.filter((c) => c.name === only) : checks.filter((c) => !excluded.has(c.name));
  if (only && selected.length === 0) return undefined;
  const results = await Promise.all(
    selected.map(async (c) => {
      try {
        await c.check();
        return { name: c.name, ok: true };
      } catch {
        return { name: c.name, ok: false };
      }
    }),
  );
  const failed = results.some((r) => !r.ok);
  const verbose = url.searchParams.has('verbose');
  if (only) {
    return failed ? { code: 500, body: `internal server error: ${only} check failed\n` } : { code: 200, body: 'ok' };
  }
  if (!verbose && !failed) return { code: 200, body: 'ok' };
  const lines = results.map((r) => (r.ok ? `[+]${r.name} ok` : `[-]${r.name} failed: reason withheld`));
  for (const name of excluded) lines.push(`[+]${name} excluded: ok`);
  lines.push(failed ? `${kind} check failed` : `${kind} check passed`);
  return { code: failed ? 500 : 200, body: `${lines.join('\n')}\n` };
}
