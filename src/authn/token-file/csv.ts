/**
 * CSV as Go's encoding/csv reads it with its defaults (how Kubernetes reads `--token-auth-file`):
 * fields separated by commas, records by line breaks (`\r\n` read as `\n`); empty lines skipped;
 * no comment lines (a `#` line is a record like any other); a field starting with `"` is quoted,
 * may hold commas, line breaks and `""` for a quote, and must end with `"` before a comma or line
 * break; a `"` inside an unquoted field is an error. Fields are not trimmed. Pure.
 */

export interface CsvRecord {
  /** 1-based line the record starts on. */
  readonly line: number;
  readonly fields: string[];
}

export class CsvParseError extends Error {
  constructor(
    readonly startLine: number,
    readonly line: number,
    readonly column: number,
    problem: string,
  ) {
    super(startLine !== line ? `record on line ${startLine}; parse error on line ${line}, column ${column}: ${problem}` : `parse error on line ${line}, column ${column}: ${problem}`);
    this.name = 'CsvParseError';
  }
}

const BARE_QUOTE = 'bare " in non-quoted-field';
const QUOTE = 'extraneous or missing " in quoted-field';

/** Throws CsvParseError at the first malformed record. */
export function parseCsv(text: string): CsvRecord[] {
  const lines = splitLines(text);
  const records: CsvRecord[] = [];
  let i = 0;
  while (i < lines.length) {
    const startLine = i + 1;
    let line = lines[i] as string;
    i++;
    if (line === '') continue;
    const fields: string[] = [];
    let pos = 0;
    let lineNo = startLine;
    for (;;) {
      if (line[pos] !== '"') {
        const comma = line.indexOf(',', pos);
        const field = comma < 0 ? line.slice(pos) : line.slice(pos, comma);
        const quote = field.indexOf('"');
        if (quote >= 0) throw new CsvParseError(startLine, lineNo, pos + quote + 1, BARE_QUOTE);
        fields.push(field);
        if (comma < 0) break;
        pos = comma + 1;
        continue;
      }
      // A quoted field, perhaps over several lines.
      let field = '';
      pos++;
      for (;;) {
        const quote = line.indexOf('"', pos);
        if (quote < 0) {
          field += `${line.slice(pos)}\n`;
          if (i >= lines.length) throw new CsvParseError(startLine, lineNo + 1, 1, QUOTE);
          line = lines[i] as string;
          i++;
          lineNo++;
          pos = 0;
          continue;
        }
        field += line.slice(pos, quote);
        const after = line[quote + 1];
        if (after === '"') {
          field += '"';
          pos = quote + 2;
          continue;
        }
        if (after === ',' || after === undefined) {
          pos = quote + 2;
          break;
        }
        throw new CsvParseError(startLine, lineNo, quote + 2, QUOTE);
      }
      fields.push(field);
      if (pos > line.length) break;
    }
    records.push({ line: startLine, fields });
  }
  return records;
}

/** Lines without their breaks; `\r\n` is a break, and a trailing `\r` before the end is dropped. */
function splitLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').replace(/\r$/, '').split('\n');
  // A final line break ends the last line rather than starting an empty one.
  if (lines.length > 0 && lines[lines.length - 1] === '' && text.length > 0) lines.pop();
  return lines;
}
