import { describe, expect, it } from 'vitest';
import { createApiNames } from '../machinery/api-names.js';
import type { KubeObject } from '../schema/index.js';
import { autoupdateSpecAnnotation, bootstrapConfiguration } from './bootstrap.js';
import { reconcileConfigObject } from './ensure-configuration.js';

const names = createApiNames('orch.io');
const KEY = autoupdateSpecAnnotation(names);
const boot = bootstrapConfiguration(names);
const wanted = boot.suggestedPriorityLevels.find((l) => l.metadata.name === 'global-default')!;
const catchAll = boot.mandatoryPriorityLevels.find((l) => l.metadata.name === 'catch-all')!;

const stored = (annotation: string | undefined, generation: number, shares = 20): KubeObject => {
  const o = structuredClone(wanted) as unknown as KubeObject & { spec: { limited: { assuredConcurrencyShares: number } } };
  o.metadata = { name: 'global-default', generation, ...(annotation !== undefined ? { annotations: { [KEY]: annotation } } : {}) };
  o.spec.limited.assuredConcurrencyShares = shares;
  return o;
};

describe('the auto-update rule', () => {
  it('names the annotation under the domain', () => {
    expect(KEY).toBe('apf.orch.io/autoupdate-spec');
    expect(autoupdateSpecAnnotation(createApiNames('k8s.io'))).toBe('apf.kubernetes.io/autoupdate-spec');
  });

  it('leaves an up-to-date object alone', () => {
    expect(reconcileConfigObject(stored('true', 3), wanted, false, KEY)).toBeUndefined();
  });

  it('puts back the spec of a suggested object annotated "true"', () => {
    const next = reconcileConfigObject(stored('true', 2, 99), wanted, false, KEY) as unknown as { spec: unknown };
    expect(next.spec).toEqual(wanted.spec);
  });

  it('keeps the spec of a suggested object annotated "false"', () => {
    expect(reconcileConfigObject(stored('false', 2, 99), wanted, false, KEY)).toBeUndefined();
  });

  it('without a boolean annotation: updates an object never changed (generation 1), keeps a changed one, and states the decision', () => {
    const fresh = reconcileConfigObject(stored(undefined, 1, 99), wanted, false, KEY)!;
    expect(fresh.metadata.annotations).toEqual({ [KEY]: 'true' });
    expect((fresh as unknown as { spec: unknown }).spec).toEqual(wanted.spec);
    const edited = reconcileConfigObject(stored('maybe', 4, 99), wanted, false, KEY)!;
    expect(edited.metadata.annotations).toEqual({ [KEY]: 'false' });
    expect((edited as unknown as { spec: { limited: { assuredConcurrencyShares: number } } }).spec.limited.assuredConcurrencyShares).toBe(99);
  });

  it('always puts back a mandatory object, and says "true"', () => {
    const o = structuredClone(catchAll) as unknown as KubeObject;
    o.metadata = { name: 'catch-all', generation: 5, annotations: { [KEY]: 'false' } };
    (o as unknown as { spec: { limited: { assuredConcurrencyShares: number } } }).spec.limited.assuredConcurrencyShares = 50;
    const next = reconcileConfigObject(o, catchAll, true, KEY)!;
    expect(next.metadata.annotations).toEqual({ [KEY]: 'true' });
    expect((next as unknown as { spec: unknown }).spec).toEqual(catchAll.spec);
  });
});
