/** Typed reading of query parameters; a malformed value is a 400 that names the parameter. */
import { errors } from '../machinery/errors.js';
import { FieldSelectorParseError, parseFieldSelector, type FieldSelector } from '../machinery/field-selector.js';
import { parseLabelSelector, SelectorParseError, type LabelSelector } from '../machinery/labels.js';
import type { ResourceDefinition } from '../registry/define-resource.js';

export class QueryParams {
  constructor(
    private readonly params: URLSearchParams,
    /** `meta.orch.io`: the group options kinds belong to, named in their validation errors. */
    private readonly metaGroup: string,
  ) {}

  string(name: string): string | undefined {
    const v = this.params.get(name);
    return v === null ? undefined : v;
  }

  bool(name: string): boolean | undefined {
    const v = this.params.get(name);
    if (v === null) return undefined;
    const s = v.toLowerCase();
    if (s === '' || s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
    throw errors.badRequest(`invalid value for ${name}: ${JSON.stringify(v)} is not a boolean (use true or false)`);
  }

  int(name: string, opts: { min?: number } = {}): number | undefined {
    const v = this.params.get(name);
    if (v === null || v === '') return undefined;
    if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(Number(v))) {
      throw errors.badRequest(`invalid value for ${name}: ${JSON.stringify(v)} is not an integer`);
    }
    const n = Number(v);
    if (opts.min !== undefined && n < opts.min) throw errors.badRequest(`invalid value for ${name}: ${n} is less than ${opts.min}`);
    return n;
  }

  labelSelector(): LabelSelector | undefined {
    const v = this.params.get('labelSelector');
    if (v === null || v === '') return undefined;
    try {
      return parseLabelSelector(v);
    } catch (e) {
      if (e instanceof SelectorParseError) throw errors.badRequest(`unable to parse labelSelector ${JSON.stringify(v)}: ${e.message}`);
      throw e;
    }
  }

  /** The field selector, checked against the fields the kind supports. */
  fieldSelector(def: ResourceDefinition): FieldSelector | undefined {
    const v = this.params.get('fieldSelector');
    if (v === null || v === '') return undefined;
    let sel: FieldSelector;
    try {
      sel = parseFieldSelector(v);
    } catch (e) {
      if (e instanceof FieldSelectorParseError) throw errors.badRequest(e.message);
      throw e;
    }
    const supported = ['metadata.name', 'metadata.namespace', ...(def.strategy.selectableFieldNames ?? [])];
    for (const r of sel.requirements) {
      if (!supported.includes(r.field)) {
        throw errors.badRequest(`field label not supported: ${r.field} (${def.resource} support ${supported.map((s) => `"${s}"`).join(', ')})`);
      }
    }
    return sel;
  }

  /**
   * The dry-run directive: unset (also `?dryRun` with no value) or `All`. Anything else is refused
   * the way Kubernetes refuses invalid options, naming the options kind.
   */
  dryRun(optionsKind: string): boolean {
    const values = this.params.getAll('dryRun').filter((v) => v !== '');
    for (const v of values) {
      if (v !== 'All') {
        throw errors.invalid({ group: this.metaGroup, kind: optionsKind }, '', [
          { type: 'FieldValueNotSupported', field: 'dryRun', value: v, detail: 'supported values: "All"' },
        ]);
      }
    }
    return values.length > 0;
  }

  fieldValidation(optionsKind: string): 'Ignore' | 'Warn' | 'Strict' {
    const v = this.params.get('fieldValidation');
    if (v === null || v === '') return 'Warn';
    if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
    throw errors.invalid({ group: this.metaGroup, kind: optionsKind }, '', [
      { type: 'FieldValueNotSupported', field: 'fieldValidation', value: v, detail: 'supported values: "Ignore", "Strict", "Warn"' },
    ]);
  }
}
