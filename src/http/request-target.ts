/**
 * The request target (RFC 9112 §3.2) as sent: its path, percent-decoded but never normalised, and
 * its query. `new URL()` is not used for the path because it resolves `.` and `..` segments (raw
 * or percent-encoded), so `/configmaps/%2e%2e` would address the collection's parent; and it
 * throws on targets Node's HTTP parser lets through (`//`, `http://%zz/api`).
 *
 * Pure; throws only RequestTargetError, whose message is fit for the client.
 */

export class RequestTargetError extends Error {}

export interface RequestTarget {
  /** The path, percent-decoded as Go's `URL.Path` is; `.`, `..` and empty segments kept. */
  readonly path: string;
  /**
   * The query in `searchParams`. Its `pathname` is the WHATWG-normalised path, kept only for
   * display: route and authorize by `path`, never by `url.pathname`.
   */
  readonly url: URL;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
/** What an authority (userinfo, host, port) may hold; `%` only as part of an escape. */
const AUTHORITY = /^[A-Za-z0-9._~!$&'()*+,;=:@[\]%-]*$/;
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/** Parses an origin-form (`/path?query`), absolute-form (`http://host/path`) or asterisk-form target. */
export function parseRequestTarget(raw: string): RequestTarget {
  let rest = raw;
  const scheme = SCHEME.exec(rest);
  if (scheme) {
    // Absolute form: the authority is checked and dropped; the path is what follows it.
    const afterScheme = rest.slice(scheme[0].length);
    const end = afterScheme.search(/[/?]/);
    const authority = end < 0 ? afterScheme : afterScheme.slice(0, end);
    if (!AUTHORITY.test(authority) || BAD_ESCAPE.test(authority) || !isParsableAuthority(authority)) throw new RequestTargetError(`invalid request target ${quote(raw)}: malformed host`);
    rest = end < 0 ? '/' : afterScheme.slice(end);
    if (rest.startsWith('?')) rest = `/${rest}`;
  } else if (rest !== '*' && !rest.startsWith('/')) {
    throw new RequestTargetError(`invalid request target ${quote(raw)}: it must be a path starting with "/"`);
  }
  const q = rest.indexOf('?');
  const rawPath = q < 0 ? rest : rest.slice(0, q);
  const rawQuery = q < 0 ? '' : rest.slice(q + 1);
  if (BAD_ESCAPE.test(rawPath)) throw new RequestTargetError(`invalid request target ${quote(raw)}: malformed percent-encoding in the path`);
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    throw new RequestTargetError(`invalid request target ${quote(raw)}: the percent-encoded path is not valid UTF-8`);
  }
  const url = new URL('http://localhost/');
  // The setters cannot throw: they escape what they do not accept.
  url.pathname = rawPath === '*' ? '/*' : rawPath;
  url.search = rawQuery;
  return { path, url };
}

function isParsableAuthority(authority: string): boolean {
  try {
    new URL(`http://${authority}/`);
    return true;
  } catch {
    return false;
  }
}

/** A target quoted for a message, shortened so a huge target does not make a huge answer. */
function quote(raw: string): string {
  return JSON.stringify(raw.length > 256 ? `${raw.slice(0, 256)}...` : raw);
}
