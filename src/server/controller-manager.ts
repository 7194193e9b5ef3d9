/**
 * The controllers as the server runs them: the settings checked and files read before the store
 * opens (`--controllers`, leader election, the cluster signing CA), then the controller manager
 * started once the default policy is in place, each controller authorized as its own user by the
 * server's authorizer.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AuthorizerMode } from '../authz/index.js';
import { forbiddenMessage, type AuthorizationAttributes } from '../authz/index.js';
import type { InProcessClient } from '../client/in-process-client.js';
import {
  checkControllerSelection,
  controllerDescriptors,
  DEFAULT_CLUSTER_SIGNING_DURATION_MS,
  DEFAULT_CONTROLLERS,
  DEFAULT_LEADER_ELECTION_TIMING,
  startControllerManager,
  validateLeaderElectionTiming,
  type ClusterSigning,
  type ControllerManager,
  type LeaderElectionTiming,
  type ServerControllerDeps,
} from '../controllers/index.js';
import type { ApiNames } from '../machinery/api-names.js';
import { errors } from '../machinery/errors.js';
import type { ListerSource } from '../machinery/lister.js';
import type { Logger } from '../machinery/logger.js';
import type { UserInfo } from '../machinery/user-info.js';
import type { CertificateAndKey } from '../machinery/x509/certificates.js';

/** The controller manager's flags, as kube-controller-manager names them. */
export interface ControllerManagerOptions {
  /** `--controllers`: `*`, `name`, `-name` (default `*`). */
  controllers?: readonly string[];
  /** `--leader-elect` (default true): run the controllers only while this instance holds the Lease. */
  leaderElect?: boolean;
  /** `--leader-elect-lease-duration`, `--leader-elect-renew-deadline`, `--leader-elect-retry-period` in milliseconds (15 s, 10 s, 2 s). */
  leaderElectLeaseDurationMs?: number;
  leaderElectRenewDeadlineMs?: number;
  leaderElectRetryPeriodMs?: number;
  /** `--cluster-signing-cert-file` and `--cluster-signing-key-file`: the CA of issued certificates (default the server's own CA). */
  clusterSigningCertFile?: string;
  clusterSigningKeyFile?: string;
  /** `--cluster-signing-duration` in milliseconds (default 8760h). */
  clusterSigningDurationMs?: number;
}

export interface ControllerSettings {
  selection: readonly string[];
  leaderElection: false | LeaderElectionTiming;
  /** The signing CA from the files, when given. */
  signingCa?: CertificateAndKey;
  signingDurationMs: number;
}

/** Checks the flags and reads the signing files; throws an Error naming the flag. */
export function loadControllerSettings(o: ControllerManagerOptions = {}): ControllerSettings {
  const selection = o.controllers ?? DEFAULT_CONTROLLERS;
  const problems = checkControllerSelection(controllerDescriptors({} as ServerControllerDeps), selection);
  if (problems.length) throw new Error(`--controllers: ${problems.join('; ')}`);
  const timing: LeaderElectionTiming = {
    leaseDurationMs: o.leaderElectLeaseDurationMs ?? DEFAULT_LEADER_ELECTION_TIMING.leaseDurationMs,
    renewDeadlineMs: o.leaderElectRenewDeadlineMs ?? DEFAULT_LEADER_ELECTION_TIMING.renewDeadlineMs,
    retryPeriodMs: o.leaderElectRetryPeriodMs ?? DEFAULT_LEADER_ELECTION_TIMING.retryPeriodMs,
  };
  const leaderElect = o.leaderElect ?? true;
  if (leaderElect) {
    const timingProblems = validateLeaderElectionTiming(timing);
    if (timingProblems.length) throw new Error(`leader election: ${timingProblems.join('; ')} (--leader-elect-lease-duration, --leader-elect-renew-deadline, --leader-elect-retry-period)`);
  }
  const durationMs = o.clusterSigningDurationMs ?? DEFAULT_CLUSTER_SIGNING_DURATION_MS;
  if (!(durationMs > 0)) throw new Error('--cluster-signing-duration must be greater than zero');
  return {
    selection,
    leaderElection: leaderElect ? timing : false,
    ...(o.clusterSigningCertFile !== undefined || o.clusterSigningKeyFile !== undefined ? { signingCa: readSigningCa(o.clusterSigningCertFile, o.clusterSigningKeyFile) } : {}),
    signingDurationMs: durationMs,
  };
}

function readSigningCa(certFile: string | undefined, keyFile: string | undefined): CertificateAndKey {
  if (certFile === undefined || keyFile === undefined) throw new Error('--cluster-signing-cert-file and --cluster-signing-key-file must be given together');
  const read = (file: string, flag: string): string => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`${flag} ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
  };
  const certPem = read(certFile, '--cluster-signing-cert-file');
  const keyPem = read(keyFile, '--cluster-signing-key-file');
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw new Error(`--cluster-signing-cert-file ${certFile}: no PEM certificate in it`);
  }
  let matches: boolean;
  try {
    matches = cert.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    throw new Error(`--cluster-signing-key-file ${keyFile}: no PEM private key in it`);
  }
  if (!matches) throw new Error(`--cluster-signing-key-file ${keyFile} is not the key of the certificate in --cluster-signing-cert-file ${certFile}`);
  if (!cert.ca) throw new Error(`--cluster-signing-cert-file ${certFile} is not a CA certificate`);
  return { certPem, keyPem };
}

/** Each call the user makes is asked of `authorizer`, as the same request over HTTP would be; a refusal is Kubernetes' 403. */
export function authorizeAs(authorizer: AuthorizerMode): (user: UserInfo) => (req: { verb: string; group: string; version: string; resource: string; subresource: string; namespace: string; name: string }, signal: AbortSignal) => Promise<void> {
  return (user) => async (req, signal) => {
    const attrs: AuthorizationAttributes = {
      user,
      verb: req.verb,
      isResourceRequest: true,
      path: '',
      namespace: req.namespace,
      apiGroup: req.group,
      apiVersion: req.version,
      resource: req.resource,
      subresource: req.subresource,
      name: req.name,
    };
    const result = await authorizer.authorize(attrs, signal);
    if (result.decision === 'allow') return;
    const message = result.reason ? `${forbiddenMessage(attrs)}: ${result.reason}` : forbiddenMessage(attrs);
    throw errors.forbidden({ group: req.group, resource: req.resource }, req.name, message);
  };
}

export interface StartControllersDeps {
  settings: ControllerSettings;
  client: InProcessClient;
  authorizer: AuthorizerMode;
  listers: ListerSource;
  names: ApiNames;
  log: Logger;
  /** The store cannot be shared by another instance (SQLite, memory). */
  exclusiveStore: boolean;
  /** The server's own CA, used for signing when no files are given and it is the client CA (its certificates then authenticate). */
  ownCa?: CertificateAndKey;
  controllerDeps: Omit<ServerControllerDeps, 'clusterSigning'>;
}

export async function startControllers(deps: StartControllersDeps): Promise<ControllerManager> {
  const { settings, names, listers } = deps;
  // The default policy was just written: let the authorizer see it before the controllers act on it.
  const rbac = names.group('rbac.authorization');
  await Promise.all(['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings'].map((r) => listers.for(rbac, r).synced()));
  const ca = settings.signingCa ?? deps.ownCa;
  const clusterSigning: ClusterSigning | undefined = ca ? { ca, durationMs: settings.signingDurationMs } : undefined;
  if (!clusterSigning) deps.log.info('csrsigning has no CA to sign with (give --cluster-signing-cert-file and --cluster-signing-key-file); certificate requests are not signed');
  return startControllerManager({
    controllers: controllerDescriptors({ ...deps.controllerDeps, ...(clusterSigning ? { clusterSigning } : {}) }),
    selection: settings.selection,
    client: deps.client,
    authorizeAs: authorizeAs(deps.authorizer),
    listers,
    names,
    log: deps.log,
    leaderElection: settings.leaderElection ? { timing: settings.leaderElection, exclusiveStore: deps.exclusiveStore } : false,
  });
}
