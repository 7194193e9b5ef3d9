/**
 * A minimal DER reader: enough ASN.1 to take a PKCS#10 request apart (tag, length, content and the
 * raw bytes of each element). Errors read like Go's encoding/asn1 ones, which Kubernetes shows.
 */
export class Asn1Error extends Error {}

export interface DerElement {
  /** The identifier octet: class, constructed bit and tag number (low tag numbers only). */
  tag: number;
  /** The content octets. */
  content: Buffer;
  /** The whole element, header included. */
  raw: Buffer;
}

export const TAG = {
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  NULL: 0x05,
  OID: 0x06,
  SEQUENCE: 0x30,
  SET: 0x31,
  /** [0] constructed, context-specific. */
  CONTEXT_0: 0xa0,
  CONTEXT_1: 0xa1,
  CONTEXT_2: 0xa2,
} as const;

/** Reads one element at `offset`; returns it and the offset after it. */
export function readElement(buf: Buffer, offset = 0): { el: DerElement; next: number } {
  if (offset + 2 > buf.length) throw new Asn1Error('asn1: syntax error: data truncated');
  const tag = buf[offset] as number;
  if ((tag & 0x1f) === 0x1f) throw new Asn1Error('asn1: structure error: high-tag-number form is not supported here');
  let pos = offset + 1;
  let length = buf[pos++] as number;
  if (length === 0x80) throw new Asn1Error('asn1: syntax error: indefinite length found (not DER)');
  if (length > 0x80) {
    const count = length & 0x7f;
    if (count > 4) throw new Asn1Error('asn1: structure error: length too large');
    if (pos + count > buf.length) throw new Asn1Error('asn1: syntax error: data truncated');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (buf[pos++] as number);
    // DER uses the shortest form: no leading zero octet, no long form for short lengths.
    if (length < 0x80 || buf[offset + 2] === 0) throw new Asn1Error('asn1: structure error: non-minimal length');
  }
  const end = pos + length;
  if (end > buf.length) throw new Asn1Error('asn1: syntax error: data truncated');
  return { el: { tag, content: buf.subarray(pos, end), raw: buf.subarray(offset, end) }, next: end };
}

/** The elements inside a constructed element's content, in order. */
export function children(el: DerElement): DerElement[] {
  const out: DerElement[] = [];
  let pos = 0;
  while (pos < el.content.length) {
    const { el: child, next } = readElement(el.content, pos);
    out.push(child);
    pos = next;
  }
  return out;
}

export function expectTag(el: DerElement | undefined, tag: number, what: string): DerElement {
  if (!el) throw new Asn1Error(`asn1: syntax error: sequence truncated (${what})`);
  if (el.tag !== tag) {
    throw new Asn1Error(`asn1: structure error: tags don't match (${what}: expected tag 0x${tag.toString(16)}, found 0x${el.tag.toString(16)})`);
  }
  return el;
}

/** Dotted text of an OBJECT IDENTIFIER's content. */
export function oidText(content: Buffer): string {
  if (content.length === 0) throw new Asn1Error('asn1: syntax error: zero length OBJECT IDENTIFIER');
  const arcs: number[] = [];
  let value = 0;
  for (let i = 0; i < content.length; i++) {
    const b = content[i] as number;
    value = value * 128 + (b & 0x7f);
    if ((b & 0x80) === 0) {
      arcs.push(value);
      value = 0;
    } else if (i === content.length - 1) {
      throw new Asn1Error('asn1: syntax error: truncated base 128 integer');
    }
  }
  const first = arcs.shift() as number;
  const head = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80];
  return [...head, ...arcs].join('.');
}

/** A small non-negative INTEGER's value (versions, salt lengths). */
export function smallInteger(el: DerElement): number {
  if (el.content.length === 0 || el.content.length > 4) throw new Asn1Error('asn1: structure error: integer too large');
  if (((el.content[0] as number) & 0x80) !== 0) throw new Asn1Error('asn1: structure error: negative integer');
  return el.content.reduce((n, b) => n * 256 + b, 0);
}
