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

export function decodeContinue(token: string): ContinuePosition {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw errors.badRequest('invalid continue token: it is not one this server issued; start a new list without continue');
  }
  const b = body as Partial<TokenBody>;
  if (b.v !== VERSION || typeof b.rv !== 'number' || !Number.isInteger(b.rv) || typeof b.start !== 'string' || b.start.includes('..')) {
    throw errors.badRequest('invalid continue token: it is not one this server issued; start a new list without continue');
  }
  return { revision: b.rv, start: b.start };
}
