/**
 * An append-only file that rotates by size, as the lumberjack logger Kubernetes' audit log uses:
 * when a write would take the file past `maxSizeMegabytes` (100 when 0), the file is renamed to
 * `<name>-<UTC time as 2006-01-02T15-04-05.000><ext>` and a new one started; then backups beyond
 * `maxBackups` (0 keeps all) and older than `maxAgeDays` (0 keeps all) by the time in their name are
 * removed, and with `compress` the others are gzipped (`.gz`). A single write larger than the limit
 * is refused. Writes are synchronous, so a `blocking` log backend has stored an event when it returns.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface RotationOptions {
  maxSizeMegabytes: number;
  maxBackups: number;
  maxAgeDays: number;
  compress: boolean;
}

const MEGABYTE = 1024 * 1024;
const DEFAULT_MAX_MEGABYTES = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private readonly maxBytes: number;
  private readonly prefix: string;
  private readonly ext: string;
  private readonly dir: string;

  constructor(
    private readonly path: string,
    private readonly opts: RotationOptions,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.maxBytes = (opts.maxSizeMegabytes > 0 ? opts.maxSizeMegabytes : DEFAULT_MAX_MEGABYTES) * MEGABYTE;
    this.dir = dirname(path);
    this.ext = extname(path);
    this.prefix = `${basename(path, this.ext)}-`;
  }

  /** Appends `data`, rotating first when it would not fit. Throws on an I/O error or an oversized write. */
  write(data: Buffer): void {
    if (data.length > this.maxBytes) throw new Error(`write length ${data.length} exceeds maximum file size ${this.maxBytes}`);
    if (this.fd === undefined) this.openExistingOrNew(data.length);
    else if (this.size + data.length > this.maxBytes) this.rotate();
    let written = 0;
    while (written < data.length) written += writeSync(this.fd as number, data, written);
    this.size += data.length;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private openExistingOrNew(length: number): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    if (!existsSync(this.path)) return this.openNew();
    const size = statSync(this.path).size;
    if (size + length > this.maxBytes) return this.rotate();
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = size;
  }

  private openNew(): void {
    this.fd = openSync(this.path, 'w', 0o600);
    this.size = 0;
  }

  private rotate(): void {
    this.close();
    if (existsSync(this.path)) {
      // Two rotations in one millisecond would share a name: the later one takes the next free millisecond.
      let t = this.now().getTime();
      const nameAt = (ms: number): string => join(this.dir, `${this.prefix}${backupTime(new Date(ms))}${this.ext}`);
      while (existsSync(nameAt(t)) || existsSync(`${nameAt(t)}.gz`)) t += 1;
      renameSync(this.path, nameAt(t));
    }
    this.openNew();
    this.mill();
  }

  /** Removes backups beyond the count and age limits, compresses the rest when asked. */
  private mill(): void {
    const backups = readdirSync(this.dir)
      .map((name) => ({ name, time: this.timeOf(name) }))
      .filter((b): b is { name: string; time: number } => b.time !== undefined)
      .sort((a, b) => b.time - a.time);
    let keep = backups;
    const remove: string[] = [];
    if (this.opts.maxBackups > 0 && keep.length > this.opts.maxBackups) {
      // A backup and its compressed twin count once, as in lumberjack.
      const seen = new Set<string>();
      const kept: typeof keep = [];
      for (const b of keep) {
        const key = b.name.replace(/\.gz$/, '');
        if (!seen.has(key) && seen.size >= this.opts.maxBackups) remove.push(b.name);
        else {
          seen.add(key);
          kept.push(b);
        }
      }
      keep = kept;
    }
    if (this.opts.maxAgeDays > 0) {
      const cutoff = this.now().getTime() - this.opts.maxAgeDays * DAY_MS;
      keep = keep.filter((b) => (b.time < cutoff ? (remove.push(b.name), false) : true));
    }
    for (const name of remove) unlinkSync(join(this.dir, name));
    if (!this.opts.compress) return;
    for (const b of keep) {
      if (b.name.endsWith('.gz')) continue;
      const from = join(this.dir, b.name);
      writeFileSync(`${from}.gz`, gzipSync(readFileSync(from)), { mode: 0o600 });
      unlinkSync(from);
    }
  }

  /** The time in a backup's name, or undefined for files that are not this log's backups. */
  private timeOf(name: string): number | undefined {
    const plain = name.endsWith('.gz') ? name.slice(0, -3) : name;
    if (!plain.startsWith(this.prefix) || !plain.endsWith(this.ext)) return undefined;
    const stamp = plain.slice(this.prefix.length, plain.length - this.ext.length);
    const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(stamp);
    if (!m) return undefined;
    const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
    return Number.isNaN(t) ? undefined : t;
  }
}

/** lumberjack's backup time format, 2006-01-02T15-04-05.000, in UTC. */
function backupTime(d: Date): string {
  return d.toISOString().slice(0, 23).replace(/:/g, '-');
}
