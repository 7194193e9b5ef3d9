/** One generated request, and how to print it so that a person can send exactly it again. */
import type { Header } from './headers.js';

export interface FuzzRequest {
  method: string;
  /** The request-target exactly as sent on the request line. */
  target: string;
  headers: Header[];
  body?: Buffer;
  /** A watch: the answer streams, so only its status and first bytes are read. */
  streaming: boolean;
  /** What the generator meant, for the failure report. */
  note: string;
}

/** Methods that may change stored state: their rejections must change nothing. */
export const isWrite = (req: FuzzRequest): boolean => req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH' || req.method === 'DELETE';

/**
 * Whether the request asks for a dry run, read as the server reads the query: every non-empty
 * `dryRun` value must be `All` (anything else is refused), and there must be one.
 */
export function isDryRun(req: FuzzRequest): boolean {
  const q = req.target.indexOf('?');
  if (q < 0) return false;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(req.target.slice(q + 1).split('#')[0]);
  } catch {
    return false;
  }
  const values = params.getAll('dryRun').filter((v) => v !== '');
  return values.length > 0 && values.every((v) => v === 'All');
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A curl command that sends the same bytes (target with --request-target; the body through base64, or
 * from `bodyFile` when it is too big for a command line).
 */
export function toCurl(req: FuzzRequest, baseUrl: string, bodyFile?: string): string {
  const parts: string[] = [];
  if (req.body !== undefined && bodyFile === undefined) parts.push(`echo ${req.body.toString('base64')} | base64 -d |`);
  parts.push('curl -sS -i', '-X', req.method, '--request-target', shellQuote(req.target));
  for (const [k, v] of req.headers) parts.push('-H', shellQuote(`${k}: ${v}`));
  if (req.body !== undefined) parts.push('--data-binary', bodyFile === undefined ? '@-' : shellQuote(`@${bodyFile}`));
  parts.push(baseUrl);
  return parts.join(' ');
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** A short readable form: method, target, headers and the start of the body. */
export function describe(req: FuzzRequest): string {
  const lines = [`${req.method} ${clip(req.target, 300)}  [${req.note}]`];
  for (const [k, v] of req.headers) lines.push(`${k}: ${clip(v, 200)}`);
  if (req.body !== undefined) lines.push(`body (${req.body.length} bytes): ${clip(JSON.stringify(req.body.toString('latin1')), 400)}`);
  return lines.join('\n  ');
}
