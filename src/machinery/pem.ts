/**
 * PEM blocks (RFC 7468) read the way Go's encoding/pem reads them, since Kubernetes decides with it
 * what a certificate request or certificate field holds: text before, between and after blocks is
 * skipped, a malformed block is skipped too, headers (`Key: value` lines) are kept apart, and the
 * body must be standard base64 once spaces, tabs and line breaks are removed. Pure.
 */
export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

const BEGIN = '\n-----BEGIN ';
const END = '\n-----END ';
const DASHES = '-----';
const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** One line without its break and trailing blanks, and the text after it. */
function getLine(s: string): [string, string] {
  const nl = s.indexOf('\n');
  const line = nl < 0 ? s : s.slice(0, nl);
  const rest = nl < 0 ? '' : s.slice(nl + 1);
  return [line.replace(/[ \t\r]+$/, ''), rest];
}

/**
 * The first well-formed block in `data` and the bytes after it, or undefined when there is none.
 * Works on the bytes as Latin-1 text so that offsets stay byte offsets.
 */
export function decodePem(data: Buffer): { block: PemBlock; rest: Buffer } | undefined {
  let rest = data.toString('latin1');
  for (;;) {
    if (rest.startsWith(BEGIN.slice(1))) {
      rest = rest.slice(BEGIN.length - 1);
    } else {
      const at = rest.indexOf(BEGIN);
      if (at < 0) return undefined;
      rest = rest.slice(at + BEGIN.length);
    }
    let typeLine: string;
    [typeLine, rest] = getLine(rest);
    if (!typeLine.endsWith(DASHES)) continue;
    const type = typeLine.slice(0, -DASHES.length);
    const headers: Record<string, string> = {};
    let headerCount = 0;
    let truncated = false;
    for (;;) {
      if (rest.length === 0) {
        truncated = true;
        break;
      }
      const [line, next] = getLine(rest);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      headerCount++;
      rest = next;
    }
    if (truncated) return undefined;
    let endIndex: number;
    let trailerIndex: number;
    // Without headers the END line may follow the BEGIN line directly.
    if (headerCount === 0 && rest.startsWith(END.slice(1))) {
      endIndex = 0;
      trailerIndex = END.length - 1;
    } else {
      endIndex = rest.indexOf(END);
      trailerIndex = endIndex + END.length;
    }
    if (endIndex < 0) continue;
    const trailerLen = type.length + DASHES.length;
    const trailer = rest.slice(trailerIndex, trailerIndex + trailerLen);
    if (trailer.length < trailerLen || trailer !== `${type}${DASHES}`) continue;
    if (getLine(rest.slice(trailerIndex + trailerLen))[0].length !== 0) continue;
    const body = rest.slice(0, endIndex).replace(/[ \t\r\n]/g, '');
    if (!STD_BASE64.test(body)) continue;
    const after = getLine(rest.slice(endIndex + END.length - 1))[1];
    return { block: { type, headers, bytes: Buffer.from(body, 'base64') }, rest: Buffer.from(after, 'latin1') };
  }
}

/** Every block in order, as repeated decodePem calls find them. */
export function decodeAllPem(data: Buffer): PemBlock[] {
  const blocks: PemBlock[] = [];
  let rest = data;
  for (;;) {
    const found = decodePem(rest);
    if (!found) return blocks;
    blocks.push(found.block);
    rest = found.rest;
  }
}
