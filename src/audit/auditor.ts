/**
 * The audit configuration a server runs with: the policy's decision per request, the backends the
 * events go to, and the counters. Built once at start from the options (src/server turns flags and
 * the webhook kubeconfig into them); throws an Error naming what is wrong, so the server refuses to
 * start rather than audit less than asked.
 */
import type { Logger } from '../machinery/logger.js';
import { ignoreErrors, unionBackends, type AuditBackend, type AuditMetrics } from './backend.js';
import { createBufferedBackend, type BatchConfig, type BatchDelegate } from './buffered-backend.js';
import { createLogBackend, type LogFormat } from './log-backend.js';
import { loadPolicyFile, parsePolicy } from './policy-file.js';
import { createPolicyChecker, type CredentialResource, type PolicyChecker } from './policy-checker.js';
import type { AuditEvent } from './types.js';
import { blockingWebhookBackend, createWebhookSender, type WebhookTarget } from './webhook-backend.js';

export type BackendMode = 'batch' | 'blocking' | 'blocking-strict';
export const BACKEND_MODES: readonly BackendMode[] = ['batch', 'blocking', 'blocking-strict'];

export interface AuditLogOptions {
  /** A file, or `-` for standard output. */
  path: string;
  format?: LogFormat;
  /** Rotation: megabytes (0: 100), backups kept (0: all), days kept (0: forever), gzip the backups. */
  maxSizeMegabytes?: number;
  maxBackups?: number;
  maxAgeDays?: number;
  compress?: boolean;
  /** Default blocking: each event is written before the request goes on. */
  mode?: BackendMode;
  batch?: Partial<BatchConfig>;
}

export interface AuditWebhookOptions {
  target: WebhookTarget;
  /** Default batch. */
  mode?: BackendMode;
  batch?: Partial<BatchConfig>;
  /** Backoff before the first retry of a failed send (`--audit-webhook-initial-backoff`, default 10 s). */
  initialBackoffMs?: number;
}

export interface AuditConfig {
  /** The policy file (`--audit-policy-file`), or its text. Without either, nothing is audited. */
  policyFile?: string;
  policyText?: string;
  log?: AuditLogOptions;
  webhook?: AuditWebhookOptions;
}

export const DEFAULT_WEBHOOK_BATCH: BatchConfig = {
  bufferSize: 10_000,
  maxBatchSize: 400,
  maxBatchWaitMs: 30_000,
  throttleEnable: true,
  throttleQps: 10,
  throttleBurst: 15,
  initialBackoffMs: 10_000,
};

/** Batching does little for a file: one event per batch, no wait, no throttle. */
export const DEFAULT_LOG_BATCH: BatchConfig = {
  bufferSize: 10_000,
  maxBatchSize: 1,
  maxBatchWaitMs: 0,
  throttleEnable: false,
  throttleQps: 0,
  throttleBurst: 0,
  initialBackoffMs: 10_000,
};

export interface Auditor {
  /** `audit.<domain>/v1` */
  readonly apiVersion: string;
  readonly decide: PolicyChecker;
  readonly metrics: AuditMetrics;
  /** `patch.webhook.admission.<domain>/`: such annotations are recorded from Request level only. */
  readonly patchAnnotationPrefix: string;
  /** Hands one event to every backend; false when a blocking-strict backend could not store it. Never throws. */
  process(event: AuditEvent): boolean | Promise<boolean>;
  shutdown(): Promise<void>;
}

export interface AuditorDeps {
  auditGroup: string;
  patchAnnotationPrefix: string;
  credentialResources: readonly CredentialResource[];
  log: Logger;
  metrics: AuditMetrics;
}

/** Throws when a setting is out of range, with Kubernetes' message. */
export function validateBatch(plugin: string, mode: BackendMode, batch: BatchConfig): void {
  if (!BACKEND_MODES.includes(mode)) throw new Error(`invalid audit ${plugin} mode ${mode}, allowed modes are "${BACKEND_MODES.join(',')}"`);
  if (mode !== 'batch') return;
  if (!(batch.bufferSize > 0)) throw new Error(`invalid audit batch ${plugin} buffer size ${batch.bufferSize}, must be a positive number`);
  if (!(batch.maxBatchSize > 0)) throw new Error(`invalid audit batch ${plugin} max batch size ${batch.maxBatchSize}, must be a positive number`);
  if (batch.throttleEnable && !(batch.throttleQps > 0)) throw new Error(`invalid audit batch ${plugin} throttle QPS ${batch.throttleQps}, must be a positive number`);
  if (batch.throttleEnable && !(batch.throttleBurst > 0)) throw new Error(`invalid audit batch ${plugin} throttle burst ${batch.throttleBurst}, must be a positive number`);
}

function wrapMode(mode: BackendMode, backend: AuditBackend, batch: BatchConfig, deps: AuditorDeps): AuditBackend {
  if (mode === 'blocking-strict') return backend;
  if (mode === 'blocking') return ignoreErrors(backend);
  const delegate: BatchDelegate = {
    name: backend.name,
    send: async (events) => ((await backend.processEvents(events)) ? 'ok' : 'fail'),
    close: () => backend.shutdown(),
  };
  return createBufferedBackend(delegate, batch, deps.log, deps.metrics);
}

/** The auditor of a configuration; undefined when it audits nothing (no policy, or no backend). */
export function createAuditor(config: AuditConfig, deps: AuditorDeps): Auditor | undefined {
  const policy = config.policyText !== undefined ? parsePolicy(config.policyText, deps.auditGroup) : config.policyFile !== undefined ? loadPolicyFile(config.policyFile, deps.auditGroup) : undefined;
  const backends: AuditBackend[] = [];
  if (config.log) {
    const mode = config.log.mode ?? 'blocking';
    const batch = { ...DEFAULT_LOG_BATCH, ...config.log.batch };
    validateBatch('log', mode, batch);
    for (const [flag, value] of [['maxage', config.log.maxAgeDays], ['maxbackup', config.log.maxBackups], ['maxsize', config.log.maxSizeMegabytes]] as const) {
      if (value !== undefined && value < 0) throw new Error(`--audit-log-${flag} ${value} can't be a negative number`);
    }
    const format = config.log.format ?? 'json';
    if (format !== 'json' && format !== 'legacy') throw new Error(`invalid audit log format ${String(format)}, allowed formats are "legacy,json"`);
    if (policy) {
      const log = createLogBackend(
        { path: config.log.path, format, maxSizeMegabytes: config.log.maxSizeMegabytes ?? 0, maxBackups: config.log.maxBackups ?? 0, maxAgeDays: config.log.maxAgeDays ?? 0, compress: config.log.compress ?? false },
        deps.log,
        deps.metrics,
      );
      backends.push(wrapMode(mode, log, batch, deps));
    }
  }
  if (config.webhook) {
    const mode = config.webhook.mode ?? 'batch';
    const initialBackoffMs = config.webhook.initialBackoffMs ?? DEFAULT_WEBHOOK_BATCH.initialBackoffMs;
    const batch = { ...DEFAULT_WEBHOOK_BATCH, initialBackoffMs, ...config.webhook.batch };
    validateBatch('webhook', mode, batch);
    if (policy) {
      const sender = createWebhookSender({ target: config.webhook.target, apiVersion: `${deps.auditGroup}/v1`, log: deps.log, metrics: deps.metrics });
      if (mode === 'batch') backends.push(createBufferedBackend(sender, batch, deps.log, deps.metrics));
      else {
        const blocking = blockingWebhookBackend(sender, initialBackoffMs, deps.metrics);
        backends.push(mode === 'blocking' ? ignoreErrors(blocking) : blocking);
      }
    }
  }
  if (!policy) {
    if (backends.length === 0 && (config.log || config.webhook)) deps.log.info('no audit policy file provided, no events will be recorded');
    return undefined;
  }
  if (backends.length === 0) return undefined;
  const backend = unionBackends(backends);
  return {
    apiVersion: `${deps.auditGroup}/v1`,
    decide: createPolicyChecker(policy, deps.credentialResources),
    metrics: deps.metrics,
    patchAnnotationPrefix: deps.patchAnnotationPrefix,
    process: (ev) => backend.processEvents([ev]),
    shutdown: () => backend.shutdown(),
  };
}
