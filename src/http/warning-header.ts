/**
 * `Warning` header values as Kubernetes writes them (its warning recorder and NewWarningHeader):
 * `299 - "text"` with `"` and `\` escaped; a text that is empty, not well-formed Unicode, or holds
 * a control character (C0, DEL, C1) is dropped rather than sent. Texts are deduplicated, and when
 * their total length passes 4096 characters every text is cut to 256 and later ones stop once the
 * total passes 4096 again. Non-ASCII text goes out as its UTF-8 bytes, as Go sends it: Node takes
 * header strings as Latin-1, so the bytes are handed over one character each (a code point above
 * U+00FF would otherwise make `setHeader` throw, after the write it reports was made).
 *
 * Pure; never throws.
 */

const TRUNCATE_AT_TOTAL = 4 * 1024;
const TRUNCATE_ITEM = 256;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The header values for the recorded warning texts, in order (Kubernetes' recorder, replayed). */
export function warningHeaderValues(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const ordered: string[] = [];
  let out: string[] = [];
  let written = 0;
  let truncating = false;
  for (const text of texts) {
    if (text === '' || seen.has(text)) continue;
    // Once cut texts fill the budget, the rest are dropped.
    if (truncating && written >= TRUNCATE_AT_TOTAL) break;
    seen.add(text);
    ordered.push(text);
    const item = truncating ? truncate(text, TRUNCATE_ITEM) : text;
    if (!isSendable(item)) continue;
    const length = runeLength(item);
    if (written + length <= TRUNCATE_AT_TOTAL || truncating) {
      written += length;
      out.push(headerValue(item));
      continue;
    }
    // The first text past the budget: from now on every text is cut, those already sent too.
    truncating = true;
    written = 0;
    out = [];
    for (const earlier of ordered) {
      const cut = truncate(earlier, TRUNCATE_ITEM);
      if (!isSendable(cut)) continue;
      written += runeLength(cut);
      out.push(headerValue(cut));
    }
  }
  return out;
}

function isSendable(text: string): boolean {
  return !CONTROL.test(text) && !LONE_SURROGATE.test(text);
}

function headerValue(text: string): string {
  const quoted = `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return Buffer.from(quoted, 'utf8').toString('latin1');
}

function runeLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function truncate(text: string, runes: number): string {
  let out = '';
  let n = 0;
  for (const c of text) {
    if (n++ === runes) break;
    out += c;
  }
  return out;
}
