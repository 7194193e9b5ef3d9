/**
 * The admission seam. Mutating plugins (`admit`) may change the object; validating plugins
 * (`validate`) only accept or reject by throwing a StatusError. Both see the same attributes.
 */
import type { KubeObject } from '../schema/index.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface AdmissionAttributes {
  operation: AdmissionOperation;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  kind: string;
  namespace: string;
  name: string;
  /** The new object; mutating plugins may change it. Absent for DELETE. */
  object?: KubeObject;
  oldObject?: KubeObject;
  dryRun: boolean;
  user?: UserInfo;
  signal: AbortSignal;
}

export interface AdmissionPlugin {
  readonly name: string;
  /** Mutating phase. May change `attrs.object`. */
  admit?(attrs: AdmissionAttributes): Promise<void> | void;
  /** Validating phase. Throws a StatusError to reject. */
  validate?(attrs: AdmissionAttributes): Promise<void> | void;
}

export interface Admission {
  admit(attrs: AdmissionAttributes): Promise<void>;
  validate(attrs: AdmissionAttributes): Promise<void>;
}

/** Runs every plugin's mutating phase in order, then every plugin's validating phase in order. */
export function admissionChain(plugins: readonly AdmissionPlugin[]): Admission {
  const mutating = plugins.filter((p) => p.admit);
  const validating = plugins.filter((p) => p.validate);
  return {
    async admit(attrs) {
      for (const p of mutating) await p.admit?.(attrs);
    },
    async validate(attrs) {
      for (const p of validating) await p.validate?.(attrs);
    },
  };
}
