/**
 * Auditing as the server runs it: the options (the `--audit-*` flags) become the auditor, with the
 * webhook's kubeconfig read here, the audit counters registered in the server's registry, and the
 * resources whose bodies carry credentials named for the policy. Throws an Error naming the flag
 * and the problem; the server then refuses to start.
 */
import { Counter, type Registry } from 'prom-client';
import { createAuditor, type AuditConfig, type AuditMetrics, type Auditor, type AuditWebhookOptions } from '../audit/index.js';
import { loadKubeconfig } from '../client/index.js';
import type { ApiNames } from '../machinery/api-names.js';
import type { Logger } from '../machinery/logger.js';

export interface AuditServerOptions extends Omit<AuditConfig, 'webhook'> {
  /** The audit webhook (`--audit-webhook-*`): its kubeconfig names the server, CA and client credentials. */
  webhook?: Omit<AuditWebhookOptions, 'target'> & { configFile: string };
}

function auditMetrics(registry: Registry): AuditMetrics {
  const events = new Counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.', registers: [registry] });
  const errors = new Counter({
    name: 'apiserver_audit_error_total',
    help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
    labelNames: ['plugin'],
    registers: [registry],
  });
  const levels = new Counter({ name: 'apiserver_audit_level_total', help: 'Counter of policy levels for audit events (1 per request).', labelNames: ['level'], registers: [registry] });
  const rejected = new Counter({ name: 'apiserver_audit_requests_rejected_total', help: 'Counter of apiserver requests rejected due to an error in audit logging backend.', registers: [registry] });
  return {
    eventGenerated: () => events.inc(),
    eventsFailed: (plugin, count) => errors.inc({ plugin }, count),
    levelChosen: (level) => levels.inc({ level }),
    requestRejected: () => rejected.inc(),
  };
}

function webhookOf(options: NonNullable<AuditServerOptions['webhook']>, names: ApiNames): AuditWebhookOptions {
  let config;
  try {
    config = loadKubeconfig(options.configFile, { domain: names.domain });
  } catch (e) {
    throw new Error(`initializing audit webhook: --audit-webhook-config-file ${options.configFile}: ${(e as Error).message}`);
  }
  if (config.user.exec) throw new Error(`initializing audit webhook: --audit-webhook-config-file ${options.configFile}: exec credential plugins are not supported here; use a client certificate or a token`);
  const { cluster, user } = config;
  const { configFile: _configFile, ...rest } = options;
  return {
    ...rest,
    target: {
      server: cluster.server,
      insecureSkipTlsVerify: cluster.insecureSkipTlsVerify,
      ...(cluster.caPem !== undefined ? { caPem: cluster.caPem } : {}),
      ...(cluster.tlsServerName !== undefined ? { tlsServerName: cluster.tlsServerName } : {}),
      ...(user.clientCertPem !== undefined ? { clientCertPem: user.clientCertPem } : {}),
      ...(user.clientKeyPem !== undefined ? { clientKeyPem: user.clientKeyPem } : {}),
      ...(user.token !== undefined ? { token: user.token } : {}),
      ...(user.tokenFile !== undefined ? { tokenFile: user.tokenFile } : {}),
    },
  };
}

export function createServerAuditor(options: AuditServerOptions | undefined, names: ApiNames, log: Logger, registry: Registry): Auditor | undefined {
  if (!options) return undefined;
  const { webhook, ...rest } = options;
  return createAuditor(
    { ...rest, ...(webhook ? { webhook: webhookOf(webhook, names) } : {}) },
    {
      auditGroup: names.group('audit'),
      patchAnnotationPrefix: names.subKey('patch.webhook.admission', ''),
      // Bodies that carry credentials: a Secret's data, a TokenRequest's token, a TokenReview's token.
      credentialResources: [
        { group: '', resource: 'secrets' },
        { group: '', resource: 'serviceaccounts/token' },
        { group: names.group('authentication'), resource: 'tokenreviews' },
      ],
      log,
      metrics: auditMetrics(registry),
    },
  );
}
