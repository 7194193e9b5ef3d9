/**
 * Continue tokens: the revision of the first page and the key to resume after, relative to the
 * resource's key prefix. Opaque base64 JSON to clients; validated on the way back in.
 */
import { errors } from '../machinery/errors.js';

interface TokenBody {
  v: string;
  /** Revision of the snapshot; -1 continues at the newest revision (an inconsistent continuation). */
  rv: number;
  /** First key to read, relative to the resource prefix. */
  start: string;
}

export interface ContinuePosition {
  revision: number;
  start: string;
}

const VERSION = 'continue/v1';

export function encodeContinue(revision: number, startRelative: string): string {
  const body: TokenBody = { v: VERSION, rv: revision, start: startRelative };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/**
 * Reads a token back. Throws 400 for anything this server did not issue, in Kubernetes' words
 * (`invalid continue token: continue key is not valid: ...`); never anything else, whatever the
 * bytes.
 */
export function decodeContinue(token: string): ContinuePosition {
  const invalid = (why?: string) => errors.badRequest(`invalid continue token: continue key is not valid${why === undefined ? '' : `: ${why}`}`);
  const bad = badBase64Byte(token);
  if (bad !== undefined) throw invalid(`illegal base64 data at input byte ${bad}`);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (e) {
    throw invalid((e as Error).message);
  }
  // JSON null decodes to an empty token in Go: no version.
  if (body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalid(`json: cannot unmarshal ${jsonTypeName(body)} into Go value of type storage.continueToken`);
  const b = body as Record<string, unknown>;
  if (b.v !== VERSION) throw invalid(`server does not recognize this encoded version ${typeof b.v === 'string' ? b.v : ''}`);
  if (typeof b.rv !== 'number' || !Number.isSafeInteger(b.rv) || b.rv === 0) throw invalid(`incorrect encoded start resourceVersion (version ${VERSION})`);
  if (typeof b.start !== 'string' || b.start === '') throw invalid(`encoded start key empty (version ${VERSION})`);
  // The start key is appended to the resource's prefix: it may not climb out of it.
  if (b.start.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) throw invalid(b.start);
  return { revision: b.rv, start: b.start };
}

/** Where unpadded base64url (Go's RawURLEncoding) fails, if it does. */
function badBase64Byte(token: string): number | undefined {
  const i = token.search(/[^A-Za-z0-9_-]/);
  if (i >= 0) return i;
  if (token.length % 4 === 1) return token.length - 1;
  return undefined;
}

function jsonTypeName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : 'number';
}
