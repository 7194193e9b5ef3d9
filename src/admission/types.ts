/**
 * Admission plugins and the chain that runs them. Mutating plugins (`admit`) may change the object;
 * validating plugins (`validate`) only accept or reject by throwing a StatusError. Both see the same
 * attributes; the chain implements the store's admission seam (src/registry/admission.ts).
 */
import type { Admission, AdmissionAttributes } from '../registry/admission.js';

export type { Admission, AdmissionAttributes, AdmissionOperation } from '../registry/admission.js';

export interface AdmissionPlugin {
  readonly name: string;
  /** Mutating phase. May change `attrs.object`. */
  admit?(attrs: AdmissionAttributes): Promise<void> | void;
  /** Validating phase. Throws a StatusError to reject. */
  validate?(attrs: AdmissionAttributes): Promise<void> | void;
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
