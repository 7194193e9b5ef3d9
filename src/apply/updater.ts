/**
 * Ownership bookkeeping of server-side apply, after structured-merge-diff's Updater: `update`
 * records a finished write (POST, PUT, non-apply PATCH) and never conflicts; `apply` merges a
 * configuration into the live object, prunes what the applier stopped sending, and reports
 * conflicts as values unless forced. Managers are keyed by an identifier (see managed-fields.ts).
 * Every manager's set is read in the request's version: objects are not converted per manager.
 * Pure: inputs are not mutated.
 */
import { compareValues, excludeFields, type Comparison } from './compare.js';
import { FieldSet } from './field-set.js';
import { mergeValues } from './merge.js';
import type { Path } from './path.js';
import { reconcileWithSchema } from './reconcile.js';
import { removeItems, withNamedFieldsAsMembers } from './remove.js';
import type { TypeRef } from './schema-view.js';
import { toFieldSet } from './to-field-set.js';
import { valuesEqual } from './value.js';

export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  /** Written by apply (an Apply entry), not by an update. */
  readonly applied: boolean;
}

/** Manager identifier → what it owns. Insertion order carries no meaning. */
export type ManagedFields = Map<string, VersionedSet>;

export interface Conflict {
  readonly manager: string;
  readonly path: Path;
}

/** Apply found fields other managers own with other values; nothing was changed. */
export class ConflictError extends Error {
  constructor(readonly conflicts: readonly Conflict[]) {
    super(`${conflicts.length} conflict(s)`);
  }
}

export interface UpdaterOptions {
  /** The type of the objects (the kind's schema). */
  readonly type: TypeRef;
  /** Fields this endpoint never owns because the store resets them (status on the main resource). */
  readonly ignored?: FieldSet;
}

export class Updater {
  constructor(private readonly opts: UpdaterOptions) {}

  private reconcile(managers: ManagedFields): ManagedFields {
    const out: ManagedFields = new Map();
    for (const [m, vs] of managers) out.set(m, { ...vs, set: reconcileWithSchema(this.opts.type, vs.set) });
    return out;
  }

  private ownable(set: FieldSet): FieldSet {
    return this.opts.ignored ? set.recursiveDifference(this.opts.ignored) : set;
  }

  /**
   * Takes what changed between `live` and `next` away from every other manager (a changed field
   * is now the writer's; a removed one is nobody's). Throws ConflictError when not forced and
   * another manager owns a changed field.
   */
  private settle(live: unknown, next: unknown, managers: ManagedFields, writer: string, force: boolean): { managers: ManagedFields; compare: Comparison } {
    const compare = excludeFields(compareValues(this.opts.type, live, next), this.opts.ignored);
    // Only other managers lose fields; a create has none, so the union is made when first needed.
    let changed: FieldSet | undefined;
    const conflicts: Conflict[] = [];
    const out: ManagedFields = new Map();
    for (const [m, vs] of managers) {
      if (m === writer) {
        if (!vs.set.empty) out.set(m, vs);
        continue;
      }
      changed ??= compare.modified.union(compare.added);
      const lost = vs.set.intersection(changed);
      if (!force) for (const path of lost.paths()) conflicts.push({ manager: m, path });
      const kept = vs.set.difference(lost).difference(compare.removed);
      if (!kept.empty) out.set(m, { ...vs, set: kept });
    }
    if (conflicts.length) throw new ConflictError(conflicts);
    return { managers: out, compare };
  }

  /** Records a finished write by `manager`: it owns what it changed. Never throws ConflictError. */
  update(live: unknown, next: unknown, apiVersion: string, managers: ManagedFields, manager: string): ManagedFields {
    const settled = this.settle(live, next, this.reconcile(managers), manager, true);
    const { compare } = settled;
    const previous = settled.managers.get(manager)?.set ?? new FieldSet();
    const set = this.ownable(previous.difference(compare.removed).union(compare.modified).union(compare.added));
    const out = new Map(settled.managers);
    if (set.empty) out.delete(manager);
    else out.set(manager, { set, apiVersion, applied: false });
    return out;
  }

  /**
   * Merges `config` into `live` for `manager`. Returns the new object (undefined when it equals
   * live) and the managers. Throws ConflictError unless `force`.
   */
  apply(live: unknown, config: unknown, apiVersion: string, managers: ManagedFields, manager: string, force: boolean): { object: unknown; managers: ManagedFields } {
    const reconciled = this.reconcile(managers);
    let merged = mergeValues(this.opts.type, live, config);
    const last = reconciled.get(manager);
    const set = this.ownable(toFieldSet(this.opts.type, config));
    const withApplier = new Map(reconciled);
    withApplier.set(manager, { set, apiVersion, applied: true });
    if (last && !last.set.empty) merged = this.prune(merged, withApplier, last.set);
    const { managers: out } = this.settle(live, merged, withApplier, manager, force);
    return { object: valuesEqual(live, merged) ? undefined : merged, managers: out };
  }

  /**
   * Removes from the merged object what the applier set last time, no longer sets, and nobody
   * else owns; everything else (fields of other managers, fields nobody owns) stays.
   */
  private prune(merged: unknown, managers: ManagedFields, last: FieldSet): unknown {
    const type = this.opts.type;
    const named = (s: FieldSet): FieldSet => withNamedFieldsAsMembers(type, s);
    let pruned = removeItems(type, merged, named(last));
    // Put back what any manager (the applier's new configuration included) owns.
    let owned = new FieldSet();
    for (const vs of managers.values()) owned = owned.union(vs.set);
    const mergedSet = named(toFieldSet(type, merged));
    pruned = removeItems(type, merged, mergedSet.difference(named(toFieldSet(type, pruned)).union(named(owned))));
    // Only what the applier owned last time may go: put back everything else.
    const gone = mergedSet.difference(named(toFieldSet(type, pruned))).intersection(named(last));
    return removeItems(type, merged, gone);
  }
}
