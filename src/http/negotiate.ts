/**
 * Media-type parsing and content negotiation (`Accept`, `Content-Type`), as Kubernetes reads them:
 * ranges with parameters and q-values; the server picks the first acceptable one it can produce.
 */
export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
  /** Position in the header, for stable ordering among equal q. */
  order: number;
}

export function parseMediaType(value: string): { type: string; subtype: string; params: Record<string, string> } | undefined {
  const [essence, ...rest] = value.split(';');
  const [type, subtype] = (essence ?? '').trim().toLowerCase().split('/');
  if (!type || !subtype) return undefined;
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const k = p.slice(0, eq).trim().toLowerCase();
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
    params[k] = v;
  }
  return { type, subtype, params };
}

/** Parses an Accept header into ranges sorted by preference (q, then header order). */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || !header.trim()) return [{ type: '*', subtype: '*', params: {}, q: 1, order: 0 }];
  const ranges: MediaRange[] = [];
  header.split(',').forEach((part, order) => {
    const m = parseMediaType(part);
    if (!m) return;
    const { q: qText, ...params } = m.params;
    const q = qText === undefined ? 1 : Number(qText);
    if (Number.isNaN(q) || q <= 0) return;
    ranges.push({ type: m.type, subtype: m.subtype, params, q, order });
  });
  return ranges.sort((a, b) => b.q - a.q || a.order - b.order);
}

/** Whether a concrete media type (`application/json`) satisfies a range. */
export function rangeAccepts(range: MediaRange, mediaType: string): boolean {
  const [type, subtype] = mediaType.split('/');
  return (range.type === '*' || range.type === type) && (range.subtype === '*' || range.subtype === subtype);
}
