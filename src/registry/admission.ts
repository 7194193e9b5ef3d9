/**
 * The admission seam as the generic store calls it: mutating admission before the object is
 * prepared and validated, validating admission just before it is written. The plugins and the chain
 * that runs them live in src/admission, which implements this interface.
 */
import type { UserInfo } from '../machinery/user-info.js';
import type { KubeObject } from '../schema/index.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

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
  /** The request's `Warning` headers: a plugin may append advice (validating phase). */
  warnings?: string[];
  /** The request's audit annotations, when the request is audited: a plugin may add to them. */
  auditAnnotations?: Record<string, string>;
}

export interface Admission {
  /** Mutating phase: may change `attrs.object`; throws a StatusError to reject. */
  admit(attrs: AdmissionAttributes): Promise<void>;
  /** Validating phase: never changes the object; throws a StatusError to reject. */
  validate(attrs: AdmissionAttributes): Promise<void>;
}
