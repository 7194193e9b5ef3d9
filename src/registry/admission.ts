/**
 * The admission seam as the generic store calls it: mutating admission before the object is
 * prepared and validated, validating admission just before it is written. The plugins and the chain
 * that runs them live in src/admission, which implements this interface.
 */
import type { AuditContext } from '../machinery/request-context.js';
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
  /**
   * The group and version the request named, when it is another served version of the kind than
   * `group`/`version` (the storage version the object is in); absent for in-process writes.
   */
  requestGroupVersion?: { group: string; version: string };
  /**
   * The operation's options as Kubernetes hands them to admission (CreateOptions, UpdateOptions or
   * DeleteOptions, with apiVersion and kind); absent for CONNECT.
   */
  options?: Record<string, unknown>;
  /** Advice for the response's `Warning` headers; plugins append to it. */
  warnings?: string[];
  /** The request's audit context: plugins add annotations to its event (see recordAuditAnnotation). */
  audit?: AuditContext;
  /**
   * Set on the dry run the store makes of a write with side effects (a Service's allocations)
   * before making them, to find refusals early. Plugins that call out of the server (webhooks) skip
   * it, so that they see the write once, as it is made.
   */
  rehearsal?: boolean;
}

export interface Admission {
  /** Mutating phase: may change `attrs.object`; throws a StatusError to reject. */
  admit(attrs: AdmissionAttributes): Promise<void>;
  /** Validating phase: never changes the object; throws a StatusError to reject. */
  validate(attrs: AdmissionAttributes): Promise<void>;
}
