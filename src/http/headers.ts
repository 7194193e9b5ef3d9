/** Request headers that HTTP/1.1 and HTTP/2 carry differently. Pure. */
import type { HttpRequest } from './listener.js';

/**
 * The value of the first `name` header as the client sent it (Go's `Header.Get`): Node joins
 * repeated headers into one, so the raw list is read instead.
 */
export function firstHeader(req: HttpRequest, name: string): string | undefined {
  const raw = req.rawHeaders;
  const lower = name.toLowerCase();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() === lower) return raw[i + 1];
  }
  return undefined;
}

/** The host the client addressed: `Host` in HTTP/1.1, the `:authority` pseudo-header in HTTP/2. */
export function requestHost(req: HttpRequest): string {
  return req.headers.host ?? (req.headers[':authority'] as string | undefined) ?? '';
}
