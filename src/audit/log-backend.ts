/**
 * The log backend (`--audit-log-path`): one line per event, `json` (the Event as JSON) or `legacy`
 * (Kubernetes' one-line text), to a size-rotated file or, for `-`, standard output. Writes are
 * synchronous: the event is stored when processEvents returns. A failed write is logged and counted
 * under plugin `log`, never thrown.
 */
import { writeSync } from 'node:fs';
import type { Logger } from '../machinery/logger.js';
import type { AuditBackend, AuditMetrics } from './backend.js';
import { legacyLine } from './legacy-format.js';
import { RotatingFile, type RotationOptions } from './rotating-file.js';
import type { AuditEvent } from './types.js';

export type LogFormat = 'json' | 'legacy';
export const LOG_FORMATS: readonly LogFormat[] = ['legacy', 'json'];

export interface LogBackendOptions extends RotationOptions {
  /** A file, or `-` for standard output. */
  path: string;
  format: LogFormat;
}

interface Sink {
  write(data: Buffer): void;
  close(): void;
}

function stdoutSink(): Sink {
  return {
    write(data) {
      let written = 0;
      while (written < data.length) written += writeSync(1, data, written);
    },
    close: () => undefined,
  };
}

export function createLogBackend(opts: LogBackendOptions, log: Logger, metrics: AuditMetrics): AuditBackend {
  const sink: Sink = opts.path === '-' ? stdoutSink() : new RotatingFile(opts.path, opts);
  const line = opts.format === 'legacy' ? (ev: AuditEvent) => `${legacyLine(ev)}\n` : (ev: AuditEvent) => `${JSON.stringify(ev)}\n`;
  let closed = false;
  return {
    name: 'log',
    processEvents(events) {
      let ok = true;
      for (const ev of events) {
        try {
          if (closed) throw new Error('the audit log is closed');
          sink.write(Buffer.from(line(ev), 'utf8'));
        } catch (e) {
          ok = false;
          metrics.eventsFailed('log', 1);
          log.error('error in audit plugin "log" affecting 1 audit event', { error: (e as Error).message, auditID: ev.auditID, stage: ev.stage });
        }
      }
      return ok;
    },
    async shutdown() {
      closed = true;
      sink.close();
    },
  };
}
