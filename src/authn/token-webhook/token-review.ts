/**
 * The TokenReview exchanged with the webhook (document 3, "TokenReview"): the request in the chosen
 * version (`v1beta1` by default, or `v1`) and the reading of the answer, which must be of that same
 * version. Pure; `readTokenReviewAnswer` throws an Error saying what is wrong with an answer.
 */
import type { ApiNames } from '../../machinery/api-names.js';
import type { UserInfo } from '../../machinery/user-info.js';

export const TOKEN_REVIEW_VERSIONS = ['v1beta1', 'v1'] as const;
export type TokenReviewVersion = (typeof TOKEN_REVIEW_VERSIONS)[number];

export interface TokenReviewStatus {
  authenticated: boolean;
  user?: UserInfo;
  audiences?: string[];
  error?: string;
}

/**
 * `--authentication-token-webhook-version`: `v1beta1` or `v1`; the full `authentication.<domain>/v1`
 * is taken too, since document 3 names the versions that way.
 */
export function parseTokenReviewVersion(text: string, names: ApiNames): TokenReviewVersion {
  const group = `${names.group('authentication')}/`;
  const bare = text.startsWith(group) ? text.slice(group.length) : text;
  if ((TOKEN_REVIEW_VERSIONS as readonly string[]).includes(bare)) return bare as TokenReviewVersion;
  throw new Error(`unsupported authentication webhook version ${JSON.stringify(text)}, supported versions are "v1", "v1beta1"`);
}

export function tokenReviewRequest(names: ApiNames, version: TokenReviewVersion, token: string, audiences: readonly string[] | undefined): object {
  return {
    apiVersion: `${names.group('authentication')}/${version}`,
    kind: 'TokenReview',
    metadata: { creationTimestamp: null },
    spec: { token, ...(audiences && audiences.length > 0 ? { audiences: [...audiences] } : {}) },
    status: { user: {} },
  };
}

export function readTokenReviewAnswer(body: unknown, names: ApiNames, version: TokenReviewVersion): TokenReviewStatus {
  const expected = `${names.group('authentication')}/${version}`;
  if (!isDict(body)) throw new Error('the answer is not a JSON object');
  // An answer that leaves apiVersion and kind out is read as the request's version, as client-go
  // decodes into a typed object; one that names another version or kind is refused.
  if (body.apiVersion !== undefined && body.apiVersion !== expected) {
    throw new Error(`the answer is ${JSON.stringify(body.apiVersion)}, not the request's version ${JSON.stringify(expected)}`);
  }
  if (body.kind !== undefined && body.kind !== 'TokenReview') throw new Error(`the answer is a ${JSON.stringify(body.kind)}, not a TokenReview`);
  const status = body.status ?? {};
  if (!isDict(status)) throw new Error('status is not an object');
  if (status.authenticated !== undefined && typeof status.authenticated !== 'boolean') throw new Error('status.authenticated is not a boolean');
  const error = status.error === undefined ? undefined : String(status.error);
  const audiences = stringList(status.audiences, 'status.audiences');
  if (status.authenticated !== true) return { authenticated: false, ...(error ? { error } : {}), ...(audiences ? { audiences } : {}) };

  const user = status.user ?? {};
  if (!isDict(user)) throw new Error('status.user is not an object');
  if (typeof user.username !== 'string' || user.username === '') throw new Error('status.authenticated is true but status.user.username is empty');
  if (user.uid !== undefined && typeof user.uid !== 'string') throw new Error('status.user.uid is not a string');
  const groups = stringList(user.groups, 'status.user.groups') ?? [];
  let extra: Record<string, string[]> | undefined;
  if (user.extra !== undefined && user.extra !== null) {
    if (!isDict(user.extra)) throw new Error('status.user.extra is not an object');
    extra = {};
    for (const [k, v] of Object.entries(user.extra)) extra[k] = stringList(v, `status.user.extra[${JSON.stringify(k)}]`) ?? [];
  }
  return {
    authenticated: true,
    user: { username: user.username, ...(typeof user.uid === 'string' && user.uid !== '' ? { uid: user.uid } : {}), groups, ...(extra ? { extra } : {}) },
    ...(audiences ? { audiences } : {}),
  };
}

function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringList(v: unknown, what: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((s): s is string => typeof s === 'string')) throw new Error(`${what} is not a list of strings`);
  return v;
}
