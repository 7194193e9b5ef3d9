/**
 * Webhook URLs and service paths checked as Kubernetes checks them. A URL is split the way Go's
 * net/url.Parse splits it (lenient where WHATWG URL parsing is strict and the other way round), so
 * that the same texts are accepted and the same parse errors are reported. Pure.
 */
import { fieldErr, type FieldError, type FieldPath } from '../../../machinery/field-errors.js';
import { isDns1123Subdomain } from '../../../machinery/name-validation.js';

interface GoUrl {
  scheme: string;
  /** The user info as Go's Userinfo.String() prints it, when present. */
  user?: string;
  host: string;
  rawQuery: string;
  fragment: string;
}

const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})(.{0,2})/;
/** Characters Go allows unescaped in a host besides letters and digits. */
const HOST_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"%]*$/;
/** Characters Go allows in user info. */
const USERINFO_CHARS = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

class UrlError extends Error {}

function checkEscapes(s: string): void {
  const m = BAD_ESCAPE.exec(s);
  if (m) throw new UrlError(`invalid URL escape ${JSON.stringify(`%${m[1] ?? ''}`)}`);
}

function unescape(s: string): string {
  checkEscapes(s);
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function validOptionalPort(port: string): boolean {
  return port === '' || (port.startsWith(':') && /^[0-9]*$/.test(port.slice(1)));
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new UrlError("missing ']' in host");
    const port = host.slice(close + 1);
    if (!validOptionalPort(port)) throw new UrlError(`invalid port ${JSON.stringify(port)} after host`);
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !validOptionalPort(host.slice(colon))) throw new UrlError(`invalid port ${JSON.stringify(host.slice(colon))} after host`);
  }
  for (const c of host) {
    if (c.charCodeAt(0) < 0x80 && !HOST_CHARS.test(c)) throw new UrlError(`invalid character ${JSON.stringify(c)} in host name`);
  }
  return unescape(host);
}

function scheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new UrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

/** Go's url.Parse, reduced to what webhook validation looks at. Throws `parse "<url>": <why>`. */
function parseGoUrl(raw: string): GoUrl {
  const hash = raw.indexOf('#');
  const beforeFragment = hash < 0 ? raw : raw.slice(0, hash);
  const fragment = hash < 0 ? '' : raw.slice(hash + 1);
  let url: GoUrl;
  try {
    url = parseWithoutFragment(beforeFragment);
  } catch (e) {
    if (e instanceof UrlError) throw new UrlError(`parse ${JSON.stringify(beforeFragment)}: ${e.message}`);
    throw e;
  }
  try {
    url.fragment = unescape(fragment);
  } catch (e) {
    if (e instanceof UrlError) throw new UrlError(`parse ${JSON.stringify(raw)}: ${e.message}`);
    throw e;
  }
  return url;
}

function parseWithoutFragment(raw: string): GoUrl {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new UrlError('net/url: invalid control character in URL');
  const url: GoUrl = { scheme: '', host: '', rawQuery: '', fragment: '' };
  if (raw === '*') return url;
  let rest: string;
  [url.scheme, rest] = scheme(raw);
  url.scheme = url.scheme.toLowerCase();
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    // A rootless path after a scheme is opaque: no host.
    if (url.scheme) return url;
    if ((rest.split('/')[0] ?? '').includes(':')) throw new UrlError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    rest = slash < 0 ? '' : authority.slice(slash);
    if (slash >= 0) authority = authority.slice(0, slash);
    const at = authority.lastIndexOf('@');
    url.host = parseHost(at < 0 ? authority : authority.slice(at + 1));
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!USERINFO_CHARS.test(userinfo)) throw new UrlError('net/url: invalid userinfo');
      checkEscapes(userinfo);
      url.user = userinfo;
    }
  }
  checkEscapes(rest);
  return url;
}

const FORM = '; desired format: https://host[/path]';

/** Kubernetes' ValidateWebhookURL with https forced, as webhook configurations use it. */
export function validateWebhookUrl(path: FieldPath, raw: string): FieldError[] {
  let u: GoUrl;
  try {
    u = parseGoUrl(raw);
  } catch (e) {
    if (e instanceof UrlError) return [fieldErr.required(path, `url must be a valid URL: ${e.message}${FORM}`)];
    throw e;
  }
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(fieldErr.invalid(path, u.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (!u.host) errs.push(fieldErr.invalid(path, u.host, `host must be specified${FORM}`));
  if (u.user !== undefined) errs.push(fieldErr.invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) errs.push(fieldErr.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery) errs.push(fieldErr.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** Kubernetes' ValidateWebhookService: name, namespace, port and a path of DNS-subdomain segments. */
export function validateWebhookService(path: FieldPath, svc: { name: string; namespace: string; path?: string; port?: number }): FieldError[] {
  const errs: FieldError[] = [];
  if (!svc.name) errs.push(fieldErr.required(path.child('name')));
  if (!svc.namespace) errs.push(fieldErr.required(path.child('namespace')));
  const port = svc.port ?? 443;
  if (port < 1 || port > 65535) errs.push(fieldErr.invalid(path.child('port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const urlPath = svc.path;
  if (urlPath === undefined || urlPath === '' || urlPath === '/') return errs;
  const p = path.child('path');
  if (urlPath === '//') return [...errs, fieldErr.invalid(p, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(fieldErr.invalid(p, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (!step) {
      errs.push(fieldErr.invalid(p, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const m of isDns1123Subdomain(step)) errs.push(fieldErr.invalid(p, urlPath, `segment[${i}]: ${m}`));
  });
  return errs;
}
