import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { RotatingFile } from './rotating-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'orch-rotate-'));
  dirs.push(d);
  return d;
}
// 1 KiB files: a megabyte setting scaled down so the test writes little.
const KIB = 1 / 1024;
const line = (n: number): Buffer => Buffer.from(`${String(n).padStart(4, '0')}${'x'.repeat(395)}\n`);

describe('RotatingFile', () => {
  it('rotates before a write would pass the size, keeps maxBackups newest backups, names them by UTC time', () => {
    const d = dir();
    let clock = Date.parse('2026-01-02T03:04:05.006Z');
    const f = new RotatingFile(join(d, 'audit.log'), { maxSizeMegabytes: KIB, maxBackups: 2, maxAgeDays: 0, compress: false }, () => new Date((clock += 1000)));
    for (let i = 0; i < 10; i++) f.write(line(i));
    f.close();
    const names = readdirSync(d).sort();
    expect(names).toEqual(['audit-2026-01-02T03-04-08.006.log', 'audit-2026-01-02T03-04-09.006.log', 'audit.log']);
    // Two 400-byte lines fit in 1 KiB, a third does not: the current file holds the last of the ten.
    expect(readFileSync(join(d, 'audit.log'), 'utf8').split('\n').filter(Boolean).map((l) => l.slice(0, 4))).toEqual(['0008', '0009']);
    expect(readFileSync(join(d, names[1] as string), 'utf8').split('\n').filter(Boolean).map((l) => l.slice(0, 4))).toEqual(['0006', '0007']);
    expect(statSync(join(d, 'audit.log')).mode & 0o777).toBe(0o600);
  });

  it('appends to an existing file that has room, rotates one that has not', () => {
    const d = dir();
    writeFileSync(join(d, 'a.log'), line(1));
    const f = new RotatingFile(join(d, 'a.log'), { maxSizeMegabytes: KIB, maxBackups: 0, maxAgeDays: 0, compress: false });
    f.write(line(2));
    f.write(line(3));
    f.close();
    expect(readdirSync(d)).toHaveLength(2);
    expect(readFileSync(join(d, 'a.log'), 'utf8').slice(0, 4)).toBe('0003');
  });

  it('removes backups older than maxAgeDays and gzips the rest when asked', () => {
    const d = dir();
    writeFileSync(join(d, 'audit-2020-01-01T00-00-00.000.log'), 'old\n');
    writeFileSync(join(d, 'unrelated.txt'), 'keep me\n');
    const f = new RotatingFile(join(d, 'audit.log'), { maxSizeMegabytes: KIB, maxBackups: 0, maxAgeDays: 1, compress: true }, () => new Date('2026-01-02T00:00:00.000Z'));
    for (let i = 0; i < 3; i++) f.write(line(i));
    f.close();
    const names = readdirSync(d).sort();
    expect(names).toEqual(['audit-2026-01-02T00-00-00.000.log.gz', 'audit.log', 'unrelated.txt']);
    expect(gunzipSync(readFileSync(join(d, 'audit-2026-01-02T00-00-00.000.log.gz'))).toString().slice(0, 4)).toBe('0000');
  });

  it('refuses a single write larger than the limit', () => {
    const f = new RotatingFile(join(dir(), 'a.log'), { maxSizeMegabytes: KIB, maxBackups: 0, maxAgeDays: 0, compress: false });
    expect(() => f.write(Buffer.alloc(2000))).toThrow('write length 2000 exceeds maximum file size 1024');
  });
});
