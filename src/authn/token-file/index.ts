/**
 * Static tokens (`--token-auth-file`), read once at start-up as Kubernetes reads the file: CSV
 * records `token,user,uid[,"group1,group2"]` (see csv.ts); a record with an empty token is skipped
 * and a repeated token replaced by the later record, each with a warning naming the record; a
 * record of fewer than three fields or malformed CSV refuses the file, naming the line.
 *
 * Presented tokens are compared with every known one in constant time (SHA-256 digests compared
 * with timingSafeEqual, no early exit), so response times say nothing about how close a guess was.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from '../../machinery/logger.js';
import type { UserInfo } from '../../machinery/user-info.js';
import { NO_OPINION, authenticated, type TokenAuthenticator } from '../types.js';
import { CsvParseError, parseCsv } from './csv.js';

interface Entry {
  readonly digest: Buffer;
  readonly user: UserInfo;
}

const digestOf = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** The users of a token file's text; `where` names the file in errors and warnings. Throws on a malformed file. */
export function parseTokenFile(text: string, where: string, log?: Logger): Map<string, UserInfo> {
  let records;
  try {
    records = parseCsv(text);
  } catch (e) {
    if (e instanceof CsvParseError) throw new Error(`token file '${where}': ${e.message}`);
    throw e;
  }
  const users = new Map<string, UserInfo>();
  let recordNumber = 0;
  for (const { line, fields } of records) {
    if (fields.length < 3) throw new Error(`token file '${where}' must have at least 3 columns (token, user name, user uid), found ${fields.length} on line ${line}`);
    recordNumber++;
    const [token, username, uid, groups] = fields as [string, string, string, string | undefined];
    if (token === '') {
      log?.warn(`empty token has been found in token file '${where}', record number '${recordNumber}'`);
      continue;
    }
    if (users.has(token)) log?.warn(`duplicate token has been found in token file '${where}', record number '${recordNumber}'`);
    users.set(token, { username, ...(uid !== '' ? { uid } : {}), groups: groups === undefined ? [] : groups.split(',') });
  }
  return users;
}

export function staticTokens(users: ReadonlyMap<string, UserInfo>): TokenAuthenticator {
  const entries: Entry[] = [...users].map(([token, user]) => ({ digest: digestOf(token), user }));
  return {
    async authenticateToken({ token }) {
      const presented = digestOf(token);
      let found: UserInfo | undefined;
      for (const e of entries) if (timingSafeEqual(presented, e.digest)) found = e.user;
      return found ? authenticated(structuredClone(found)) : NO_OPINION;
    },
  };
}

/** Reads `--token-auth-file`; throws an Error naming the flag, file and line when it cannot be used. */
export function tokenFileAuthenticator(path: string, log?: Logger): TokenAuthenticator {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`--token-auth-file ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  try {
    return staticTokens(parseTokenFile(text, path, log));
  } catch (e) {
    throw new Error(`--token-auth-file: ${(e as Error).message}`);
  }
}
