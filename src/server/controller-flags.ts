/**
 * The command's controller manager flags, as kube-controller-manager names them: parseArgs options,
 * their help text, and their reading into ServerOptions. Throws an Error with the message for a
 * usage error (an unknown controller, bad durations); the signing files are read later, by
 * createServer.
 */
import { resolve } from 'node:path';
import { loadControllerSettings, type ControllerManagerOptions } from './controller-manager.js';
import { parseDuration } from './options.js';

export const CONTROLLER_FLAGS = {
  controllers: { type: 'string', multiple: true },
  'leader-elect': { type: 'string' },
  'leader-elect-lease-duration': { type: 'string' },
  'leader-elect-renew-deadline': { type: 'string' },
  'leader-elect-retry-period': { type: 'string' },
  'cluster-signing-cert-file': { type: 'string' },
  'cluster-signing-key-file': { type: 'string' },
  'cluster-signing-duration': { type: 'string' },
} as const;

export const CONTROLLER_FLAGS_HELP = `  --controllers=LIST            controllers to run: * (every one on by default), NAME, -NAME; tokencleaner
                                and bootstrapsigner are off unless named (default *)
  --leader-elect[=true|false]   run the controllers only while this instance holds the controller
                                manager's Lease in the system namespace (default true)
  --leader-elect-lease-duration=DURATION
                                how long others wait before taking over a silent leader (default 15s)
  --leader-elect-renew-deadline=DURATION
                                how long a leader keeps trying to renew before it stops (default 10s)
  --leader-elect-retry-period=DURATION
                                the pause between attempts to take or renew the Lease (default 2s)
  --cluster-signing-cert-file=FILE
                                PEM CA certificate that signs approved certificate requests (default:
                                the CA made in DIR/pki, when it is the client CA)
  --cluster-signing-key-file=FILE
                                PEM private key of --cluster-signing-cert-file
  --cluster-signing-duration=DURATION
                                longest lifetime of an issued certificate (default 8760h0m0s)
`;

type Values = { [K in keyof typeof CONTROLLER_FLAGS]?: (typeof CONTROLLER_FLAGS)[K] extends { multiple: true } ? string[] : string };

/** Go's strconv.ParseBool. */
function parseBool(name: string, value: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
  throw new Error(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: use true or false`);
}

export function parseControllerFlags(v: Values): ControllerManagerOptions {
  const duration = (name: keyof Values): number | undefined => {
    const text = v[name];
    if (text === undefined || Array.isArray(text)) return undefined;
    try {
      return parseDuration(text);
    } catch (e) {
      throw new Error(`--${name}: ${(e as Error).message}`);
    }
  };
  const out: ControllerManagerOptions = {
    ...(v.controllers !== undefined ? { controllers: v.controllers.flatMap((c) => c.split(',')).map((c) => c.trim()) } : {}),
    ...(v['leader-elect'] !== undefined ? { leaderElect: parseBool('leader-elect', v['leader-elect']) } : {}),
    ...optional('leaderElectLeaseDurationMs', duration('leader-elect-lease-duration')),
    ...optional('leaderElectRenewDeadlineMs', duration('leader-elect-renew-deadline')),
    ...optional('leaderElectRetryPeriodMs', duration('leader-elect-retry-period')),
    ...(v['cluster-signing-cert-file'] !== undefined ? { clusterSigningCertFile: resolve(v['cluster-signing-cert-file']) } : {}),
    ...(v['cluster-signing-key-file'] !== undefined ? { clusterSigningKeyFile: resolve(v['cluster-signing-key-file']) } : {}),
    ...optional('clusterSigningDurationMs', duration('cluster-signing-duration')),
  };
  if ((out.clusterSigningCertFile === undefined) !== (out.clusterSigningKeyFile === undefined)) throw new Error('--cluster-signing-cert-file and --cluster-signing-key-file must be given together');
  // Everything but the files: an unknown controller or inconsistent durations are usage errors.
  loadControllerSettings({ ...out, clusterSigningCertFile: undefined, clusterSigningKeyFile: undefined } as ControllerManagerOptions);
  return out;
}

function optional<K extends string>(key: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}
