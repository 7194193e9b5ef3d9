/**
 * The command's `--audit-*` flags, as parseArgs options and their reading into the server's audit
 * options, with kube-apiserver's names, defaults and messages. Like kube-apiserver, the log flags do
 * nothing without `--audit-log-path`, the webhook flags nothing without
 * `--audit-webhook-config-file`, and neither backend records anything without
 * `--audit-policy-file`. Throws an Error with the message for a usage error; the files are read
 * later, by createServer.
 */
import { resolve } from 'node:path';
import { BACKEND_MODES, LOG_FORMATS, type BackendMode, type BatchConfig, type LogFormat } from '../audit/index.js';
import type { AuditServerOptions } from './audit.js';
import { parseDuration } from './options.js';

const batchFlags = (plugin: 'log' | 'webhook') =>
  ({
    [`audit-${plugin}-mode`]: { type: 'string' },
    [`audit-${plugin}-batch-buffer-size`]: { type: 'string' },
    [`audit-${plugin}-batch-max-size`]: { type: 'string' },
    [`audit-${plugin}-batch-max-wait`]: { type: 'string' },
    [`audit-${plugin}-batch-throttle-enable`]: { type: 'string' },
    [`audit-${plugin}-batch-throttle-qps`]: { type: 'string' },
    [`audit-${plugin}-batch-throttle-burst`]: { type: 'string' },
    [`audit-${plugin}-version`]: { type: 'string' },
  }) as const;

export const AUDIT_FLAGS = {
  'audit-policy-file': { type: 'string' },
  'audit-log-path': { type: 'string' },
  'audit-log-maxage': { type: 'string' },
  'audit-log-maxbackup': { type: 'string' },
  'audit-log-maxsize': { type: 'string' },
  'audit-log-format': { type: 'string' },
  'audit-log-compress': { type: 'string' },
  ...batchFlags('log'),
  'audit-webhook-config-file': { type: 'string' },
  'audit-webhook-initial-backoff': { type: 'string' },
  ...batchFlags('webhook'),
} as Record<string, { type: 'string' }>;

/** Go bool flags: `--flag` alone means true. */
export const AUDIT_BOOLEAN_FLAGS = ['audit-log-compress', 'audit-log-batch-throttle-enable', 'audit-webhook-batch-throttle-enable'] as const;

export const AUDIT_HELP = `  --audit-policy-file=FILE      audit.<domain>/v1 Policy: which requests are audited, at which level
                                (None, Metadata, Request, RequestResponse); nothing is audited without it
  --audit-log-path=FILE         write audit events to FILE, one per line; - for standard output
  --audit-log-format=FORMAT     json (default): the Event as JSON; legacy: one line of text
  --audit-log-maxsize=MB        rotate the log file at this size; 0 means 100 (default 0)
  --audit-log-maxbackup=N       rotated files kept; 0 keeps all (default 0)
  --audit-log-maxage=DAYS       days rotated files are kept, by the time in their name; 0 keeps
                                them (default 0)
  --audit-log-compress          gzip rotated files
  --audit-log-mode=MODE         blocking (default), blocking-strict or batch, with the
                                --audit-log-batch-* flags named as the webhook's
  --audit-webhook-config-file=FILE
                                kubeconfig naming the audit webhook; events are POSTed as an EventList
  --audit-webhook-mode=MODE     batch (default), blocking or blocking-strict: batch buffers and never
                                blocks requests; blocking-strict fails a request whose first event
                                is not stored
  --audit-webhook-batch-buffer-size=N
                                events buffered; more are dropped and counted (default 10000)
  --audit-webhook-batch-max-size=N
                                events per batch (default 400)
  --audit-webhook-batch-max-wait=DURATION
                                longest wait before a partial batch is sent (default 30s)
  --audit-webhook-batch-throttle-enable=BOOL
                                limit the batches sent per second (default true)
  --audit-webhook-batch-throttle-qps=N
                                batches per second (default 10)
  --audit-webhook-batch-throttle-burst=N
                                batches sent at once when the rate allows (default 15)
  --audit-webhook-initial-backoff=DURATION
                                wait before the first retry of a failed send (default 10s)
`;

type Values = Record<string, string | boolean | string[] | undefined>;

function text(v: Values, name: string): string | undefined {
  const value = v[name];
  return typeof value === 'string' ? value : undefined;
}

function int(v: Values, name: string): number | undefined {
  const value = text(v, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new Error(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  return Number(value);
}

function float(v: Values, name: string): number | undefined {
  const value = text(v, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(value)) throw new Error(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: strconv.ParseFloat: parsing ${JSON.stringify(value)}: invalid syntax`);
  return Number(value);
}

function bool(v: Values, name: string): boolean | undefined {
  const value = text(v, name);
  if (value === undefined) return undefined;
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
  throw new Error(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: use true or false`);
}

function duration(v: Values, name: string): number | undefined {
  const value = text(v, name);
  if (value === undefined) return undefined;
  try {
    return parseDuration(value);
  } catch (e) {
    throw new Error(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: ${(e as Error).message}`);
  }
}

function mode(v: Values, plugin: 'log' | 'webhook'): BackendMode | undefined {
  const value = text(v, `audit-${plugin}-mode`);
  if (value === undefined) return undefined;
  if (!(BACKEND_MODES as readonly string[]).includes(value)) throw new Error(`invalid audit ${plugin} mode ${value}, allowed modes are "${BACKEND_MODES.join(',')}"`);
  return value as BackendMode;
}

function batch(v: Values, plugin: 'log' | 'webhook'): Partial<BatchConfig> {
  const p = `audit-${plugin}-batch`;
  const entries: [keyof BatchConfig, number | boolean | undefined][] = [
    ['bufferSize', int(v, `${p}-buffer-size`)],
    ['maxBatchSize', int(v, `${p}-max-size`)],
    ['maxBatchWaitMs', duration(v, `${p}-max-wait`)],
    ['throttleEnable', bool(v, `${p}-throttle-enable`)],
    ['throttleQps', float(v, `${p}-throttle-qps`)],
    ['throttleBurst', int(v, `${p}-throttle-burst`)],
  ];
  return Object.fromEntries(entries.filter(([, x]) => x !== undefined));
}

function checkVersion(v: Values, plugin: 'log' | 'webhook', apiDomain: string): void {
  const value = text(v, `audit-${plugin}-version`);
  const known = `audit.${apiDomain}/v1`;
  if (value !== undefined && value !== known) throw new Error(`invalid group version, allowed versions are ["${known}"]`);
}

/** The audit options the flags ask for; undefined when no audit flag is given. */
export function parseAuditFlags(v: Values, apiDomain: string): AuditServerOptions | undefined {
  const policyFile = text(v, 'audit-policy-file');
  const logPath = text(v, 'audit-log-path');
  const webhookFile = text(v, 'audit-webhook-config-file');
  checkVersion(v, 'log', apiDomain);
  checkVersion(v, 'webhook', apiDomain);
  if (policyFile === undefined && !logPath && !webhookFile) return undefined;
  const out: AuditServerOptions = { ...(policyFile !== undefined ? { policyFile: resolve(policyFile) } : {}) };
  if (logPath) {
    const format = text(v, 'audit-log-format');
    if (format !== undefined && !(LOG_FORMATS as readonly string[]).includes(format)) throw new Error(`invalid audit log format ${format}, allowed formats are "${LOG_FORMATS.join(',')}"`);
    const maxAgeDays = int(v, 'audit-log-maxage');
    const maxBackups = int(v, 'audit-log-maxbackup');
    const maxSizeMegabytes = int(v, 'audit-log-maxsize');
    for (const [flag, value] of [['maxage', maxAgeDays], ['maxbackup', maxBackups], ['maxsize', maxSizeMegabytes]] as const) {
      if (value !== undefined && value < 0) throw new Error(`--audit-log-${flag} ${value} can't be a negative number`);
    }
    const compress = bool(v, 'audit-log-compress');
    const logMode = mode(v, 'log');
    out.log = {
      path: logPath === '-' ? '-' : resolve(logPath),
      ...(format !== undefined ? { format: format as LogFormat } : {}),
      ...(maxAgeDays !== undefined ? { maxAgeDays } : {}),
      ...(maxBackups !== undefined ? { maxBackups } : {}),
      ...(maxSizeMegabytes !== undefined ? { maxSizeMegabytes } : {}),
      ...(compress !== undefined ? { compress } : {}),
      ...(logMode ? { mode: logMode } : {}),
      batch: batch(v, 'log'),
    };
  }
  if (webhookFile) {
    const webhookMode = mode(v, 'webhook');
    const initialBackoffMs = duration(v, 'audit-webhook-initial-backoff');
    out.webhook = {
      configFile: resolve(webhookFile),
      ...(webhookMode ? { mode: webhookMode } : {}),
      ...(initialBackoffMs !== undefined ? { initialBackoffMs } : {}),
      batch: batch(v, 'webhook'),
    };
  }
  return out;
}
