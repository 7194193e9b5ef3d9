/**
 * A fuzz campaign: generated requests sent one at a time to a server, each checked against three
 * rules — no 5xx answer, the server still alive and answering, and a rejected (or dry-run) write
 * leaves the global resourceVersion where it was. Requests go one at a time so that every failure is
 * pinned on exactly one request.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRequest } from './generate.js';
import { Random } from './random.js';
import { describe, isDryRun, isWrite, toCurl, type FuzzRequest } from './request.js';
import { Sender, type Outcome } from './send.js';

/** The server under test, as the campaign sees it. */
export interface Target {
  url: string;
  /** Why the server is gone (exit code, last lines of its log), or undefined while it runs. */
  exitReason(): string | undefined;
  /** A position in the server's log, and what it logged since one: shown with a 5xx (the log has what the Status hides). */
  logMark?(): number;
  logSince?(mark: number): string;
  /** Starts a fresh server after a crash; the campaign goes on against it. */
  restart?(): Promise<string>;
}

export type FailureKind = '5xx' | 'crash' | 'no answer' | 'state changed';

export interface Failure {
  kind: FailureKind;
  index: number;
  seed: number;
  request: FuzzRequest;
  detail: string;
  /** The request as a curl command against the server it was sent to. */
  curl: string;
}

export interface Summary {
  seed: number;
  requests: number;
  byStatus: Record<string, number>;
  serverErrors: number;
  crashes: number;
  noAnswer: number;
  stateChanged: number;
  /** Revision moves across a rejected write that did not repeat on a second try (background work). */
  backgroundMoves: number;
  failures: Failure[];
  elapsedMs: number;
}

export interface CampaignOptions {
  seed: number;
  count: number;
  /** Stop at the first failure (CI); otherwise record it and go on. */
  stopOnFailure?: boolean;
  /** Per-request deadline. */
  timeoutMs?: number;
  /** Called every `progressEvery` requests. */
  progress?: (done: number, s: Summary) => void;
  progressEvery?: number;
  /** Called on each failure as it happens. */
  onFailure?: (f: Failure) => void;
}

const RV_PATH = '/api/v1/namespaces?limit=1';

export async function runCampaign(target: Target, opts: CampaignOptions): Promise<Summary> {
  const started = Date.now();
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const random = new Random(opts.seed);
  const summary: Summary = { seed: opts.seed, requests: 0, byStatus: {}, serverErrors: 0, crashes: 0, noAnswer: 0, stateChanged: 0, backgroundMoves: 0, failures: [], elapsedMs: 0 };
  let sender = new Sender(target.url);

  const readRv = async (): Promise<string | undefined> => {
    const o = await sender.send({ method: 'GET', target: RV_PATH, headers: [['Accept', 'application/json']], streaming: false, note: 'resourceVersion probe' }, timeoutMs);
    if (o.status !== 200) return undefined;
    try {
      return (JSON.parse(o.head) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
    } catch {
      return undefined;
    }
  };

  /** Waits until the revision stops moving: controllers may still be finishing earlier accepted writes. */
  const quiet = async (): Promise<string | undefined> => {
    let last = await readRv();
    let same = 0;
    for (let i = 0; i < 100 && same < 3; i++) {
      await new Promise((r) => setTimeout(r, 30));
      const now = await readRv();
      same = now === last ? same + 1 : 0;
      last = now;
    }
    return last;
  };

  const fail = (kind: FailureKind, index: number, req: FuzzRequest, detail: string): Failure => {
    let bodyFile: string | undefined;
    if (req.body !== undefined && req.body.length > 2048) {
      bodyFile = join(tmpdir(), `orch-fuzz-${opts.seed}-${index}.body`);
      writeFileSync(bodyFile, req.body);
    }
    const f: Failure = { kind, index, seed: opts.seed, request: req, detail, curl: toCurl(req, target.url, bodyFile) };
    summary.failures.push(f);
    opts.onFailure?.(f);
    return f;
  };

  /** After a failed request: is the server gone? Then count a crash and bring a new one up. */
  const checkAlive = async (index: number, req: FuzzRequest): Promise<boolean> => {
    await new Promise((r) => setTimeout(r, 50));
    let reason = target.exitReason();
    if (reason === undefined) {
      const probe = await sender.send({ method: 'GET', target: '/healthz', headers: [], streaming: false, note: 'liveness probe' }, timeoutMs, true);
      if (probe.status === 200) return true;
      reason = target.exitReason() ?? `the server does not answer /healthz (${probe.status || probe.error})`;
    }
    summary.crashes++;
    fail('crash', index, req, reason);
    if (!target.restart) return false;
    sender.close();
    target.url = await target.restart();
    sender = new Sender(target.url);
    return true;
  };

  const sendChecked = async (index: number, req: FuzzRequest): Promise<Outcome | undefined> => {
    let o = await sender.send(req, timeoutMs);
    if (o.status === 0 && target.exitReason() === undefined) {
      // A kept-alive connection the server had closed, or a body it stopped reading: try once afresh.
      o = await sender.send(req, timeoutMs, true);
    }
    if (o.status === 0) {
      const crashesBefore = summary.crashes;
      if (!(await checkAlive(index, req))) return undefined;
      if (summary.crashes === crashesBefore) {
        summary.noAnswer++;
        fail('no answer', index, req, o.error ?? 'no answer');
      }
    }
    return o;
  };

  let previous: FuzzRequest | undefined;
  for (let i = 0; i < opts.count; i++) {
    // A server that died after answering is blamed on the request it answered last.
    if (previous && target.exitReason() !== undefined && !(await checkAlive(i - 1, previous))) break;
    let req: FuzzRequest;
    try {
      req = generateRequest(random);
    } catch (e) {
      throw new Error(`the generator failed at request #${i} of seed ${opts.seed}: ${(e as Error).stack ?? String(e)}`);
    }
    previous = req;
    const write = isWrite(req);
    const before = write ? await readRv() : undefined;
    const mark = target.logMark?.() ?? 0;
    const o = await sendChecked(i, req);
    summary.requests++;
    if (o === undefined) break;
    const key = o.status > 0 ? String(o.status) : o.status === 0 ? 'no answer' : 'not sendable';
    summary.byStatus[key] = (summary.byStatus[key] ?? 0) + 1;
    if (o.status >= 500 || streamError(o)) {
      summary.serverErrors++;
      // Give the server a moment to write its log line, then quote what it logged for this request.
      await new Promise((r) => setTimeout(r, 20));
      const log = target.logSince?.(mark).trim().slice(0, 1500);
      fail('5xx', i, req, `${o.status} ${o.head.slice(0, 600)}${log ? `\n  server log: ${log}` : ''}`);
    }
    if (write && o.status > 0 && (o.status >= 400 || isDryRun(req))) {
      const after = await readRv();
      if (before !== undefined && after !== undefined && before !== after) {
        // Controllers may have written meanwhile: settle, then send the same request again.
        const settled = await quiet();
        const again = await sender.send(req, timeoutMs);
        const afterAgain = await readRv();
        if (again.status >= 400 || (again.status > 0 && isDryRun(req))) {
          if (settled !== afterAgain) {
            summary.stateChanged++;
            fail('state changed', i, req, `answered ${o.status} (then ${again.status}) yet the resourceVersion moved ${before} → ${after} (then ${settled} → ${afterAgain}): ${o.head.slice(0, 400)}`);
          } else {
            summary.backgroundMoves++;
          }
        }
      }
    }
    if (opts.stopOnFailure && summary.failures.length > 0) break;
    if (opts.progress && opts.progressEvery && (i + 1) % opts.progressEvery === 0) {
      summary.elapsedMs = Date.now() - started;
      opts.progress(i + 1, summary);
    }
  }
  if (previous && target.exitReason() !== undefined && summary.failures.at(-1)?.kind !== 'crash') {
    // The last request answered, then the server died.
    await new Promise((r) => setTimeout(r, 50));
    summary.crashes++;
    fail('crash', summary.requests - 1, previous, target.exitReason() ?? 'the server exited');
  }
  sender.close();
  summary.elapsedMs = Date.now() - started;
  return summary;
}

/** A watch that answered 200 and then sent an ERROR event carrying a 5xx Status. */
function streamError(o: Outcome): boolean {
  return o.streamed && /"type":\s*"ERROR"[\s\S]*"code":\s*5\d\d/.test(o.head);
}

export function formatFailure(f: Failure): string {
  return [`${f.kind} at request #${f.index} (seed ${f.seed}): ${f.detail}`, `  ${describe(f.request)}`, `  reproduce: ${f.curl}`, `  or replay the run: npm run fuzz -- --seed ${f.seed} --count ${f.index + 1}`].join('\n');
}

export function formatSummary(s: Summary): string {
  const statuses = Object.entries(s.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
  const secs = s.elapsedMs / 1000;
  return [
    `seed ${s.seed}: ${s.requests} requests in ${secs.toFixed(1)} s (${(s.requests / Math.max(secs, 0.001)).toFixed(0)}/s)`,
    `  by status: ${statuses}`,
    `  5xx: ${s.serverErrors}, crashes: ${s.crashes}, no answer: ${s.noAnswer}, rejected writes that changed state: ${s.stateChanged} (background moves ruled out: ${s.backgroundMoves})`,
  ].join('\n');
}
